import { describe, expect, it } from 'vitest';
import type { RecentChannelFile } from '../../app-types.js';
import { ACTION, fileRefCodec } from '../ids.js';
import { blockKitViolations } from './limits.js';
import { buildDirectMessageHelp, buildNegotiateChoices } from './negotiate-choices.js';

const file = (n: number, overrides: Partial<RecentChannelFile> = {}): RecentChannelFile => ({
  fileId: `F0FILE${String(n).padStart(4, '0')}`,
  name: `quote-${n}.xlsx`,
  sharedBy: 'U0MAYA0001',
  readInThread: null,
  ...overrides,
});

describe('buildNegotiateChoices', () => {
  it('offers a Negotiate button per file, and a link to the thread of one already read', async () => {
    const message = buildNegotiateChoices([
      file(1),
      file(2, { readInThread: 'https://slack.com/archives/C0SOURCING/p1767225600000100' }),
    ]);
    const json = JSON.stringify(message.blocks);
    expect(json).toContain(JSON.stringify(fileRefCodec.encode({ f: 'F0FILE0001' })));
    expect(json).toContain(ACTION.negotiateFile);
    expect(json).toContain('https://slack.com/archives/C0SOURCING/p1767225600000100');
    expect(json).toContain('<@U0MAYA0001>');
    expect(blockKitViolations(message, 'message')).toEqual([]);
  });

  it('escapes and cuts a hostile file name', () => {
    const name = `<!channel> ${'x'.repeat(500)}.xlsx`;
    const message = buildNegotiateChoices([file(1, { name })]);
    const json = JSON.stringify(message.blocks);
    expect(json).not.toContain('<!channel>');
    expect(json).toContain('&lt;!channel&gt;');
    expect(blockKitViolations(message, 'message')).toEqual([]);
  });

  it('says how to share or link a file when there is none', () => {
    const message = buildNegotiateChoices([]);
    expect(message.text).toMatch(/No spreadsheet/);
    expect(JSON.stringify(message.blocks)).toContain('/parley negotiate https://');
  });
});

describe('buildDirectMessageHelp', () => {
  it('says quotations are read in channels, and how to invite Parley', () => {
    const message = buildDirectMessageHelp();
    expect(JSON.stringify(message.blocks)).toContain('/invite @Parley');
    expect(blockKitViolations(message, 'message')).toEqual([]);
  });
});
