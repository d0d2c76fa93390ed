import { describe, expect, it } from 'vitest';
import { createFile } from './files.js';
import { createMessage, SlackModel, type SandboxMessage } from './model.js';
import { blockLines, readableText, renderThread, threadJson } from './transcript.js';

const CHANNEL = 'C0SOURCING';

function workspace(): SlackModel {
  let now = 1_700_000_000_000;
  return new SlackModel({
    teamId: 'T0SANDBOX1',
    teamName: 'Sandbox',
    teamDomain: 'sandbox',
    botUserId: 'U0PARLEYBOT',
    botId: 'B0PARLEYBOT',
    botName: 'Parley',
    appId: 'A0PARLEYAPP',
    users: [{ id: 'U0ALICE001', name: 'alice', realName: 'Alice Buyer', isBot: false }],
    channels: [{ id: CHANNEL, name: 'sourcing', isPrivate: false, members: ['U0ALICE001', 'U0PARLEYBOT'] }],
    clock: () => (now += 1000),
  });
}

function post(model: SlackModel, fields: Partial<SandboxMessage> & { text: string }): SandboxMessage {
  return model.addMessage(
    createMessage({ channel: CHANNEL, ts: model.nextTs(), user: 'U0PARLEYBOT', postedAt: model.clock(), ...fields }),
  );
}

describe('readableText', () => {
  it('shows mentions, channel links, links and escapes as Slack displays them', () => {
    const model = workspace();
    expect(
      readableText(model, '<@U0ALICE001> see <#C0SOURCING> and <https://x.test|the PO> &lt;draft&gt; &amp; <!here>'),
    ).toBe('@Alice Buyer see #sourcing and the PO <draft> & @here');
  });
});

describe('blockLines', () => {
  it('renders selects, images, context, fields and accessories', () => {
    const model = workspace();
    expect(
      blockLines(model, {
        type: 'section',
        text: { type: 'mrkdwn', text: 'Line 3 matched to *TRK-001*' },
        accessory: { type: 'static_select', options: [] },
      }),
    ).toEqual(['Line 3 matched to *TRK-001*  [Choose…▾]']);
    expect(
      blockLines(model, {
        type: 'actions',
        elements: [
          { type: 'static_select', placeholder: { type: 'plain_text', text: 'Pick a supplier' }, options: [] },
          { type: 'button', text: { type: 'plain_text', text: 'Confirm' } },
        ],
      }),
    ).toEqual(['[Pick a supplier▾] [Confirm]']);
    expect(
      blockLines(model, { type: 'image', image_url: 'https://x.test/c.png', alt_text: 'Price trajectory' }),
    ).toEqual(['[image: Price trajectory]']);
    expect(
      blockLines(model, {
        type: 'context',
        elements: [
          { type: 'image', image_url: 'https://x.test/a.png', alt_text: 'avatar' },
          { type: 'mrkdwn', text: 'Round 2 of 3' },
        ],
      }),
    ).toEqual(['[image: avatar]  Round 2 of 3']);
    expect(
      blockLines(model, {
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: '*Total* $42,000' },
          { type: 'mrkdwn', text: '*Lead* 30 days' },
        ],
      }),
    ).toEqual(['*Total* $42,000  |  *Lead* 30 days']);
    expect(
      blockLines(model, {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'user', user_id: 'U0ALICE001' },
              { type: 'text', text: ' please confirm' },
            ],
          },
          {
            type: 'rich_text_list',
            style: 'ordered',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'price' }] },
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'lead time' }] },
            ],
          },
        ],
      }),
    ).toEqual(['@Alice Buyer please confirm', '1. price', '2. lead time']);
  });
});

describe('renderThread', () => {
  it('reads a thread as a person does: personas, latest edits only, files and reactions', () => {
    const model = workspace();
    const file = createFile(model, { name: 'quote.xlsx', user: 'U0ALICE001', bytes: Buffer.from('x') });
    const root = post(model, {
      user: 'U0ALICE001',
      subtype: 'file_share',
      text: 'Here is the quote',
      fileIds: [file.id],
    });
    const status = post(model, {
      threadTs: root.ts,
      botId: 'B0PARLEYBOT',
      text: 'Reading…',
      blocks: [{ type: 'section', block_id: 's1', text: { type: 'mrkdwn', text: 'Reading…' } }],
    });
    status.history.push({ text: status.text, blocks: status.blocks, replacedAt: 0 });
    status.text = 'Read 12 lines';
    status.blocks = [
      { type: 'header', block_id: 'h', text: { type: 'plain_text', text: 'Quotation read' } },
      { type: 'divider', block_id: 'd' },
      { type: 'section', block_id: 's2', text: { type: 'mrkdwn', text: '12 lines, 2 to confirm' } },
    ];
    status.editedAt = model.nextTs();
    status.reactions.push({ name: 'white_check_mark', users: ['U0ALICE001'] });
    post(model, {
      threadTs: root.ts,
      botId: 'B0PARLEYBOT',
      username: 'Acme Textiles',
      text: 'We can do $9.40 per unit.',
    });
    post(model, { threadTs: root.ts, user: 'U0ALICE001', text: 'Go ahead <@U0PARLEYBOT>' });

    expect(renderThread(model, CHANNEL, root.ts)).toBe(
      [
        `── #sourcing · thread ${root.ts} ──`,
        'Alice Buyer',
        '  Here is the quote',
        '  📎 quote.xlsx',
        '',
        'Parley (edited)',
        '  # Quotation read',
        '  ────────',
        '  12 lines, 2 to confirm',
        '  :white_check_mark: 1',
        '',
        'Acme Textiles',
        '  We can do $9.40 per unit.',
        '',
        'Alice Buyer',
        '  Go ahead @Parley',
        '',
      ].join('\n'),
    );
    const json = threadJson(model, CHANNEL, root.ts);
    expect(json.map((m) => [m.author, m.isBot, m.edited])).toEqual([
      ['Alice Buyer', false, false],
      ['Parley', true, true],
      ['Acme Textiles', true, false],
      ['Alice Buyer', false, false],
    ]);
    expect(json[0]?.files).toEqual(['quote.xlsx']);
    expect(json[1]?.text).not.toContain('Reading');
  });

  it("shows a viewer's own ephemerals in place, and nobody else's", () => {
    const model = workspace();
    const root = post(model, { user: 'U0ALICE001', text: 'quote' });
    model.addEphemeral({
      user: 'U0ALICE001',
      channel: CHANNEL,
      ts: model.nextTs(),
      threadTs: root.ts,
      text: 'Only approvers can approve a PO',
      blocks: undefined,
      source: 'chat.postEphemeral',
      postedAt: model.clock(),
    });
    post(model, { threadTs: root.ts, botId: 'B0PARLEYBOT', text: 'Waiting for an approver' });
    expect(renderThread(model, CHANNEL, root.ts, { viewer: 'U0ALICE001' })).toContain(
      'Parley (only visible to you)\n  Only approvers can approve a PO\n\nParley\n  Waiting for an approver',
    );
    expect(renderThread(model, CHANNEL, root.ts)).not.toContain('Only approvers');
    expect(threadJson(model, CHANNEL, root.ts, { viewer: 'U0BOB00001' })).toHaveLength(2);
  });
});
