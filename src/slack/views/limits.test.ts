import { describe, expect, it } from 'vitest';
import { blockKitViolations } from './limits.js';

const section = (text: string, block_id?: string) => ({ type: 'section', text: { type: 'mrkdwn', text }, block_id });
const button = (text: string, action_id: string, extra: Record<string, unknown> = {}) => ({
  type: 'button',
  text: { type: 'plain_text', text },
  action_id,
  ...extra,
});
const modal = (blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: { type: 'plain_text', text: 'Purchase order' },
  blocks,
  ...extra,
});

function expectOne(violations: string[], fragment: string): void {
  expect(
    violations.some((v) => v.includes(fragment)),
    `${fragment} in ${JSON.stringify(violations)}`,
  ).toBe(true);
}

describe('blockKitViolations', () => {
  it('accepts a plain, valid message', () => {
    const payload = {
      text: 'hello',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Title' } },
        section('body', 'b1'),
        { type: 'actions', block_id: 'b2', elements: [button('Go', 'go', { value: 'x' })] },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'small' }] },
        { type: 'divider' },
      ],
    };
    expect(blockKitViolations(payload, 'message')).toEqual([]);
  });

  it('requires a fallback text on messages and caps it at 40000', () => {
    expectOne(blockKitViolations({ blocks: [] }, 'message'), 'fallback text');
    expectOne(blockKitViolations({ text: '  ', blocks: [] }, 'message'), 'fallback text');
    expectOne(blockKitViolations({ text: 'x'.repeat(40_001), blocks: [] }, 'message'), 'limit 40000');
    expect(blockKitViolations({ text: 'x'.repeat(40_000), blocks: [] }, 'message')).toEqual([]);
  });

  it('counts blocks: 50 per message, 100 per modal or home', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(blockKitViolations({ text: 't', blocks: blocks(50) }, 'message')).toEqual([]);
    expectOne(blockKitViolations({ text: 't', blocks: blocks(51) }, 'message'), '51 items, limit 50');
    expect(blockKitViolations(modal(blocks(100)), 'modal')).toEqual([]);
    expectOne(blockKitViolations(modal(blocks(101)), 'modal'), '101 items, limit 100');
    expectOne(blockKitViolations({ type: 'home', blocks: blocks(101) }, 'home'), 'limit 100');
  });

  it('checks section text and fields', () => {
    expectOne(blockKitViolations({ text: 't', blocks: [section('x'.repeat(3001))] }, 'message'), 'limit 3000');
    expectOne(blockKitViolations({ text: 't', blocks: [section('')] }, 'message'), 'text is empty');
    expectOne(blockKitViolations({ text: 't', blocks: [{ type: 'section' }] }, 'message'), 'needs text or fields');
    const fields = (n: number, size: number) =>
      Array.from({ length: n }, () => ({ type: 'mrkdwn', text: 'f'.repeat(size) }));
    expectOne(
      blockKitViolations({ text: 't', blocks: [{ type: 'section', fields: fields(11, 5) }] }, 'message'),
      '11 items, limit 10',
    );
    expectOne(
      blockKitViolations({ text: 't', blocks: [{ type: 'section', fields: fields(2, 2001) }] }, 'message'),
      'limit 2000',
    );
  });

  it('checks header length and type', () => {
    const header = (text: string, type = 'plain_text') => ({ type: 'header', text: { type, text } });
    expectOne(blockKitViolations({ text: 't', blocks: [header('h'.repeat(151))] }, 'message'), 'limit 150');
    expectOne(blockKitViolations({ text: 't', blocks: [header('h', 'mrkdwn')] }, 'message'), 'must be plain_text');
  });

  it('checks context and actions element counts', () => {
    const ctx = { type: 'context', elements: Array.from({ length: 11 }, () => ({ type: 'mrkdwn', text: 'c' })) };
    expectOne(blockKitViolations({ text: 't', blocks: [ctx] }, 'message'), '11 items, limit 10');
    const actions = { type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button('b', `a${i}`)) };
    expectOne(blockKitViolations({ text: 't', blocks: [actions] }, 'message'), '26 items, limit 25');
  });

  it('checks buttons: text 75, value 2000, url 3000, action_id 255', () => {
    const check = (b: unknown) =>
      blockKitViolations({ text: 't', blocks: [{ type: 'actions', elements: [b] }] }, 'message');
    expectOne(check(button('b'.repeat(76), 'a')), 'button text text is 76 chars');
    expectOne(check(button('b', 'a', { value: 'v'.repeat(2001) })), 'button value is 2001');
    expectOne(check(button('b', 'a', { url: 'https://x/' + 'u'.repeat(3000) })), 'button url');
    expectOne(check(button('b', 'a'.repeat(256))), 'action_id is 256');
    expect(check(button('b'.repeat(75), 'a'.repeat(255), { value: 'v'.repeat(2000) }))).toEqual([]);
  });

  it('requires unique block_ids per surface and unique action_ids per block', () => {
    const dupBlocks = blockKitViolations(
      { text: 't', blocks: [section('a', 'same'), section('b', 'same')] },
      'message',
    );
    expectOne(dupBlocks, "block_id 'same' is also used by blocks[0]");
    const dupActions = blockKitViolations(
      { text: 't', blocks: [{ type: 'actions', elements: [button('a', 'x'), button('b', 'x')] }] },
      'message',
    );
    expectOne(dupActions, "action_id 'x' is also used");
    // The same action_id in two different blocks is fine.
    const twoBlocks = blockKitViolations(
      {
        text: 't',
        blocks: [
          { type: 'actions', block_id: 'one', elements: [button('a', 'x')] },
          { type: 'actions', block_id: 'two', elements: [button('b', 'x')] },
        ],
      },
      'message',
    );
    expect(twoBlocks).toEqual([]);
    expectOne(blockKitViolations({ text: 't', blocks: [section('a', 'b'.repeat(256))] }, 'message'), 'block_id is 256');
  });

  it('checks static selects: 100 options, option text 75, value 150', () => {
    const opt = (text: string, value: string) => ({ text: { type: 'plain_text', text }, value });
    const select = (options: unknown[]) => ({
      text: 't',
      blocks: [{ type: 'actions', elements: [{ type: 'static_select', action_id: 's', options }] }],
    });
    expect(blockKitViolations(select([opt('a', 'b')]), 'message')).toEqual([]);
    expectOne(blockKitViolations(select(Array.from({ length: 101 }, () => opt('a', 'b'))), 'message'), 'limit 100');
    expectOne(blockKitViolations(select([opt('o'.repeat(76), 'v')]), 'message'), 'option text text is 76');
    expectOne(blockKitViolations(select([opt('o', 'v'.repeat(151))]), 'message'), 'option value is 151');
  });

  it('checks modal title, buttons, metadata, callback_id and the submit rule', () => {
    expectOne(
      blockKitViolations(modal([], { title: { type: 'plain_text', text: 'x'.repeat(25) } }), 'modal'),
      'limit 24',
    );
    expectOne(
      blockKitViolations(modal([], { submit: { type: 'plain_text', text: 's'.repeat(25) } }), 'modal'),
      'submit text is 25',
    );
    expectOne(blockKitViolations(modal([], { private_metadata: 'm'.repeat(3001) }), 'modal'), 'private_metadata');
    expectOne(blockKitViolations(modal([], { callback_id: 'c'.repeat(256) }), 'modal'), 'callback_id');
    const input = {
      type: 'input',
      block_id: 'i',
      label: { type: 'plain_text', text: 'Reason' },
      element: { type: 'plain_text_input', action_id: 'r', max_length: 3001 },
    };
    const v = blockKitViolations(modal([input]), 'modal');
    expectOne(v, 'needs a submit button');
    expectOne(v, 'max_length is 3001');
    expectOne(blockKitViolations({ type: 'modal', blocks: [] }, 'home'), 'expected home');
  });

  it('flags a view over 250 kB of JSON', () => {
    const big = Array.from({ length: 100 }, (_, i) => section('x'.repeat(3000), `b${i}`));
    expectOne(blockKitViolations(modal(big), 'modal'), 'bytes of JSON, limit 250000');
    expect(blockKitViolations(modal(big.slice(0, 50)), 'modal')).toEqual([]);
  });

  it('checks input label and hint, image alt_text', () => {
    const input = {
      type: 'input',
      label: { type: 'plain_text', text: 'l'.repeat(2001) },
      hint: { type: 'plain_text', text: 'h'.repeat(2001) },
      element: { type: 'number_input', is_decimal_allowed: false, action_id: 'n' },
    };
    const v = blockKitViolations(modal([input], { submit: { type: 'plain_text', text: 'OK' } }), 'modal');
    expectOne(v, 'input label text is 2001');
    expectOne(v, 'input hint text is 2001');
    const image = { type: 'image', image_url: 'https://x/p.png', alt_text: 'a'.repeat(2001) };
    expectOne(blockKitViolations({ text: 't', blocks: [image] }, 'message'), 'alt_text is 2001');
  });

  it('wants dispatch_action on an input block inside a message', () => {
    const input = (dispatch: boolean) => ({
      type: 'input',
      dispatch_action: dispatch,
      label: { type: 'plain_text', text: 'Page' },
      element: { type: 'number_input', is_decimal_allowed: false, action_id: 'p' },
    });
    expectOne(blockKitViolations({ text: 't', blocks: [input(false)] }, 'message'), 'dispatch_action');
    expect(blockKitViolations({ text: 't', blocks: [input(true)] }, 'message')).toEqual([]);
  });

  it('rejects non-objects', () => {
    expectOne(blockKitViolations(null, 'message'), 'must be an object');
    expectOne(blockKitViolations({ text: 't', blocks: [42] }, 'message'), 'block must be an object');
  });
});

describe('the newer blocks', () => {
  const raw = (text: string) => ({ type: 'raw_text', text });
  const message = (block: unknown) => ({ text: 'x', blocks: [block] });

  it('checks table and data_table rows, widths, header cells and page size', () => {
    expect(blockKitViolations(message({ type: 'table', rows: [[raw('a'), raw('b')]] }), 'message')).toEqual([]);
    const wide = Array.from({ length: 21 }, () => raw('c'));
    expect(blockKitViolations(message({ type: 'table', rows: [wide] }), 'message').join()).toMatch(
      /21 cells, limit 20/,
    );
    const rows = Array.from({ length: 102 }, () => [raw('a')]);
    const tooMany = blockKitViolations(message({ type: 'data_table', caption: 'c', rows }), 'message').join();
    expect(tooMany).toMatch(/rows/);
    const ragged = { type: 'data_table', caption: 'c', page_size: 101, rows: [[raw('h'), raw('h')], [raw('a')]] };
    const problems = blockKitViolations(message(ragged), 'message').join('\n');
    expect(problems).toMatch(/as many cells as the header/);
    expect(problems).toMatch(/page_size must be 1–100/);
    expect(
      blockKitViolations(message({ type: 'data_table', rows: [[raw('h')], [raw('a')]] }), 'message').join(),
    ).toMatch(/needs a caption/);
  });

  it('keeps alert blocks to modals and checks feedback buttons', () => {
    const alert = { type: 'alert', level: 'warning', text: { type: 'mrkdwn', text: 'Needs two approvers' } };
    expect(blockKitViolations(message(alert), 'message').join()).toMatch(/modals only/);
    const modal = { type: 'modal', title: { type: 'plain_text', text: 'PO' }, blocks: [alert] };
    expect(blockKitViolations(modal, 'modal')).toEqual([]);
    const feedback = (negative: unknown) => ({
      type: 'context_actions',
      elements: [
        {
          type: 'feedback_buttons',
          action_id: 'fb',
          positive_button: { text: { type: 'plain_text', text: '👍' }, value: 'up' },
          negative_button: negative,
        },
      ],
    });
    expect(
      blockKitViolations(message(feedback({ text: { type: 'plain_text', text: '👎' }, value: 'down' })), 'message'),
    ).toEqual([]);
    expect(blockKitViolations(message(feedback(undefined)), 'message').join()).toMatch(/needs a negative_button/);
  });
});
