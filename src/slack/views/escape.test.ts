import { describe, expect, it } from 'vitest';
import {
  ELLIPSIS,
  escapeText,
  escapeTruncate,
  fitMrkdwn,
  link,
  md,
  mention,
  mrkdwn,
  oneLine,
  plain,
  preformatted,
  truncate,
} from './escape.js';

describe('escapeText', () => {
  it('turns pings and links into text', () => {
    expect(escapeText('<!channel>')).toBe('&lt;!channel&gt;');
    expect(escapeText('<!here> hi')).toBe('&lt;!here&gt; hi');
    expect(escapeText('<@U1>')).toBe('&lt;@U1&gt;');
    expect(escapeText('<#C1>')).toBe('&lt;#C1&gt;');
    expect(escapeText('<https://x|y>')).toBe('&lt;https://x|y&gt;');
  });

  it('escapes an ampersand even when it already looks like an entity', () => {
    // The cell said "&amp;": the reader must see "&amp;", not "&".
    expect(escapeText('&amp;')).toBe('&amp;amp;');
    expect(escapeText('R&D')).toBe('R&amp;D');
  });

  it('drops control characters and bidi overrides, keeps newlines and tabs', () => {
    expect(escapeText('a\u0000b\u202Ec\nd\te')).toBe('abc\nd\te');
  });
});

describe('truncate', () => {
  it('leaves short text alone and cuts long text with an ellipsis within the limit', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe(`abc${ELLIPSIS}`);
    expect(truncate('x'.repeat(10_000), 3000)).toHaveLength(3000);
  });

  it('never splits a surrogate pair', () => {
    const s = '😀'.repeat(10);
    const cut = truncate(s, 6);
    expect(cut.length).toBeLessThanOrEqual(6);
    expect(cut).toBe(`😀😀${ELLIPSIS}`);
  });

  it('handles tiny limits', () => {
    expect(truncate('abcdef', 1)).toBe(ELLIPSIS);
    expect(truncate('abcdef', 0)).toBe('');
  });
});

describe('escapeTruncate', () => {
  it('counts the escaped length and never leaves half an entity', () => {
    const s = '<'.repeat(10_000);
    for (const max of [1, 2, 5, 6, 7, 75, 3000]) {
      const out = escapeTruncate(s, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(out.replace(/&lt;/g, '').replace(ELLIPSIS, '')).toBe('');
    }
  });

  it('keeps 10K-char hostile input within 3000 and harmless', () => {
    const out = escapeTruncate('<!channel> & '.repeat(1000), 3000);
    expect(out.length).toBeLessThanOrEqual(3000);
    expect(out).not.toContain('<');
    expect(out.endsWith(ELLIPSIS)).toBe(true);
  });
});

describe('plain and mrkdwn text objects', () => {
  it('escapes, fits and never comes out empty', () => {
    expect(plain('<!channel>', 75)).toEqual({ type: 'plain_text', text: '&lt;!channel&gt;', emoji: true });
    expect(plain('a\n\nb')).toMatchObject({ text: 'a b' });
    expect(plain('   ').text).toBe('—');
    expect(plain('x'.repeat(10_000), 75).text).toHaveLength(75);
    expect(mrkdwn('<@U1> hi')).toEqual({ type: 'mrkdwn', text: '&lt;@U1&gt; hi', verbatim: true });
    expect(mrkdwn('y'.repeat(10_000)).text.length).toBeLessThanOrEqual(3000);
    expect(mrkdwn('').text).toBe('—');
  });
});

describe('fitMrkdwn', () => {
  it('does not cut a mention or an entity in half', () => {
    const safe = `${'a'.repeat(20)}<@U012ABCDEF> &amp; tail`;
    for (let max = 10; max < safe.length; max++) {
      const out = fitMrkdwn(safe, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(/<[^>]*$/.test(out)).toBe(false);
      expect(/&[a-z]*$/.test(out.replace(ELLIPSIS, ''))).toBe(false);
    }
  });

  it('closes a code block it cut open', () => {
    const safe = '```\n' + 'line\n'.repeat(1000) + '```';
    const out = fitMrkdwn(safe, 300);
    expect(out.length).toBeLessThanOrEqual(300);
    expect(out.split('```').length - 1).toBe(2);
  });

  it('md() fits and marks verbatim', () => {
    expect(md('x'.repeat(5000)).text.length).toBeLessThanOrEqual(3000);
    expect(md('*ok*')).toEqual({ type: 'mrkdwn', text: '*ok*', verbatim: true });
  });
});

describe('mention', () => {
  it('builds a mention from a real user id', () => {
    expect(mention('U0123ABCD')).toBe('<@U0123ABCD>');
    expect(mention('W0123ABCD')).toBe('<@W0123ABCD>');
  });

  it('refuses anything else', () => {
    expect(() => mention('U1> <!channel')).toThrow(TypeError);
    expect(() => mention('<!here>')).toThrow(TypeError);
    expect(() => mention('u0123')).toThrow(TypeError);
    expect(() => mention('')).toThrow(TypeError);
  });
});

describe('link', () => {
  it('links a trusted url with an escaped label and drops bad urls', () => {
    expect(link('https://x.slack.com/archives/C1/p1', 'open <thread>')).toBe(
      '<https://x.slack.com/archives/C1/p1|open &lt;thread&gt;>',
    );
    expect(link('javascript:alert(1)', 'x')).toBe('x');
    expect(link('https://a b', '<!here>')).toBe('&lt;!here&gt;');
  });
});

describe('preformatted', () => {
  it('escapes lines, neutralises backticks and counts what did not fit', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `row ${i} <!channel> \`\`\` x`);
    const out = preformatted(lines, 3000);
    expect(out.text.length).toBeLessThanOrEqual(3000);
    expect(out.shown).toBeGreaterThan(10);
    expect(out.shown + out.omitted).toBe(500);
    expect(out.text.split('```').length - 1).toBe(2);
    expect(out.text).not.toContain('<!channel>');
  });

  it('is empty when nothing fits', () => {
    expect(preformatted(['x'.repeat(100)], 50)).toEqual({ text: '', shown: 0, omitted: 1 });
  });
});

describe('oneLine', () => {
  it('collapses whitespace', () => {
    expect(oneLine('  a\n\tb  c ')).toBe('a b c');
  });
});
