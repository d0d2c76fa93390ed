import { describe, expect, it } from 'vitest';
import { threadPicturePng, threadPictureSvg } from './thread-picture.js';
import type { TranscriptMessage } from './transcript.js';

const message = (over: Partial<TranscriptMessage>): TranscriptMessage => ({
  ts: '1.0',
  author: 'Parley',
  isBot: true,
  text: '',
  edited: false,
  files: [],
  reactions: [],
  ...over,
});

describe('threadPictureSvg', () => {
  it('draws every message with its author, its words as plain text, files and reactions', () => {
    const svg = threadPictureSvg('#sourcing', [
      message({ author: 'Maya', isBot: false, files: ['quote.xlsx'], reactions: [{ name: 'eyes', count: 1 }] }),
      message({ text: ':white_check_mark: *PO-1 approved* by _Sam_', edited: true }),
    ]);
    expect(svg).toContain('>Maya<');
    expect(svg).toContain('📎 quote.xlsx');
    expect(svg).toContain(':eyes: 1');
    expect(svg).toContain('Parley  APP  (edited)');
    expect(svg).toContain('✔ PO-1 approved by Sam');
  });

  it('escapes what the thread says, wraps long lines and grows with the thread', () => {
    const long = 'word '.repeat(100);
    const svg = threadPictureSvg('t', [message({ text: `<script> & "x" ${long}` })]);
    expect(svg).toContain('&lt;script&gt; &amp; &quot;x&quot;');
    expect(svg).not.toContain('<script>');
    const short = threadPictureSvg('t', [message({ text: 'word' })]);
    const height = (s: string) => Number(/height="(\d+)"/.exec(s)?.[1]);
    expect(height(svg)).toBeGreaterThan(height(short));
  });

  it('renders to a PNG', async () => {
    const png = await threadPicturePng('t', [message({ text: 'hello' })]);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
