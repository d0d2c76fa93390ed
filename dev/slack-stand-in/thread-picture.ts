// A picture of a thread as the stand-in's transcript has it (threadJson): who posted, what the blocks say, files and
// reactions, in a Slack-like column. SVG built here, PNG by resvg (the chart's renderer: no canvas, no browser), so
// the README's picture of the thread is rendered from a real run, not drawn by hand. `npm run demo -- --png PATH`.
import { renderAsync } from '@resvg/resvg-js';
import type { TranscriptMessage } from './transcript.js';

const WIDTH = 960;
const MARGIN = 24;
const LINE_PX = 19;
const AUTHOR_PX = 22;
const GAP_PX = 16;
/** Characters a line holds at 14 px DejaVu Sans in the column (about 8 px a character). */
const WRAP = 108;
const FONT = 'DejaVu Sans';

/** Emoji codes the font cannot draw, as the characters it can (or nothing): the picture shows what Slack shows. */
const EMOJI: Readonly<Record<string, string>> = {
  white_check_mark: '✔',
  ballot_box_with_check: '☑',
  x: '✘',
  warning: '⚠',
  star: '★',
  trophy: '★',
  large_yellow_circle: '●',
  moneybag: '$',
  truck: '⛟',
  credit_card: '▭',
  gift: '+',
  paperclip: '📎',
  bell: '♪',
  bar_chart: '▤',
};

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Slack's mrkdwn as plain text: emoji codes, bold/italic markers and code fences go. */
function plainText(text: string): string {
  return text
    .replace(/:([a-z0-9_+-]+):/g, (_, name: string) => EMOJI[name] ?? '')
    .replace(/```/g, '')
    .replace(/(^|[\s(])[*_]+|[*_]+(?=$|[\s).,:;])/gm, '$1');
}

function wrap(line: string): string[] {
  if (line.length <= WRAP) return [line];
  const out: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current && current.length + word.length + 1 > WRAP) {
      out.push(current);
      current = '   ';
    }
    current = current ? `${current} ${word}` : word;
  }
  if (current.trim()) out.push(current);
  return out;
}

export function threadPictureSvg(title: string, messages: readonly TranscriptMessage[]): string {
  const parts: string[] = [];
  let y = MARGIN + AUTHOR_PX;
  parts.push(`<text x="${MARGIN}" y="${y}" font-size="18" font-weight="bold">${xml(title)}</text>`);
  y += GAP_PX;
  for (const message of messages) {
    const top = y;
    y += AUTHOR_PX;
    const author = `${message.author}${message.isBot ? '  APP' : ''}${message.edited ? '  (edited)' : ''}`;
    parts.push(`<text x="${MARGIN + 12}" y="${y}" font-size="15" font-weight="bold">${xml(author)}</text>`);
    const lines = [
      ...plainText(message.text)
        .split('\n')
        .flatMap((line) => wrap(line.replace(/\s+$/, ''))),
      ...message.files.map((file) => `📎 ${file}`),
      ...(message.reactions.length > 0 ? [message.reactions.map((r) => `:${r.name}: ${r.count}`).join('  ')] : []),
    ];
    for (const line of lines) {
      y += LINE_PX;
      const monospace = /^\s*(Supplier|[A-Z][\w .…-]+\s{2,}\$?[\d,.]+)/.test(line) && /\s{2,}/.test(line.trim());
      parts.push(
        `<text x="${MARGIN + 12}" y="${y}" font-size="14"${monospace ? ' font-family="DejaVu Sans Mono"' : ''}>` +
          `${xml(line)}</text>`,
      );
    }
    y += GAP_PX / 2;
    parts.unshift(
      `<rect x="${MARGIN}" y="${top}" width="${WIDTH - 2 * MARGIN}" height="${y - top}" rx="6" ` +
        `fill="${message.isBot ? '#f8f8fa' : '#eef5ff'}" stroke="#dddde3"/>`,
    );
    y += GAP_PX;
  }
  const height = y + MARGIN;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="${FONT}" fill="#1d1c1d">` +
    `<rect width="100%" height="100%" fill="white"/>${parts.join('')}</svg>`
  );
}

export async function threadPicturePng(title: string, messages: readonly TranscriptMessage[]): Promise<Buffer> {
  const image = await renderAsync(threadPictureSvg(title, messages), {
    font: { loadSystemFonts: true, defaultFontFamily: FONT, sansSerifFamily: FONT },
    background: 'white',
  });
  return image.asPng();
}
