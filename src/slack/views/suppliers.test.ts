import { describe, expect, it } from 'vitest';
import { BLOCK, CALLBACK } from '../ids.js';
import { suppliersModalValues as values } from '../../../test/support/slack-payloads.js';
import { blockKitViolations } from './limits.js';
import { buildSupplierWelcome, buildSuppliersModal, parseSuppliersModal, type SupplierRow } from './suppliers.js';

const text = (value: unknown) => JSON.stringify(value);

const row = (over: Partial<SupplierRow>): SupplierRow => ({
  id: 'cmsupplier0001',
  name: 'Ningbo Everbright',
  channelId: null,
  state: 'none',
  connectedBy: null,
  connectedAt: null,
  ...over,
});

describe('buildSuppliersModal', () => {
  it('lists each supplier’s channel and state, escapes names, and stays within Block Kit’s limits', () => {
    const view = buildSuppliersModal({
      brandName: 'Valden <Outdoor>',
      suppliers: [
        row({
          name: 'Ningbo *Everbright* <!channel>',
          channelId: 'C0NINGBO01',
          state: 'connected',
          connectedBy: 'U0APPROVE1',
          connectedAt: new Date('2027-03-01T10:00:00Z'),
        }),
        row({ id: 'cmsupplier0002', name: 'Dhaka Knit', channelId: 'C0DHAKA001', state: 'not_shared' }),
        row({ id: 'cmsupplier0003', name: 'Porto Têxteis' }),
      ],
    });
    expect(view.callback_id).toBe(CALLBACK.suppliersModal);
    const shown = text(view);
    expect(shown).toContain('<#C0NINGBO01>, connected by <@U0APPROVE1>');
    expect(shown).toContain('<#C0DHAKA001> :warning: no longer shared');
    expect(shown).toContain('Porto Têxteis* — not connected');
    // Mrkdwn escapes the name; the select's option is plain_text, where nothing is a mention.
    const mrkdwn = text(view.blocks.filter((block) => block.type === 'section'));
    expect(mrkdwn).toContain('&lt;!channel&gt;');
    expect(mrkdwn).not.toContain('<!channel>');
    expect(mrkdwn).not.toContain('<Outdoor>');
    const pick = view.blocks.find((block) => block.block_id === BLOCK.supplierPick);
    expect(pick).toMatchObject({ element: { type: 'static_select', options: expect.any(Array) } });
    const channel = view.blocks.find((block) => block.block_id === BLOCK.supplierChannel);
    expect(channel).toMatchObject({ type: 'input', element: { type: 'conversations_select' } });
    expect(blockKitViolations(view, 'modal')).toEqual([]);
  });

  it('asks for a new supplier’s name only, when the workspace has no supplier yet', () => {
    const view = buildSuppliersModal({ brandName: 'Valden', suppliers: [] });
    expect(view.blocks.some((block) => block.block_id === BLOCK.supplierPick)).toBe(false);
    expect(view.blocks.find((block) => block.block_id === BLOCK.supplierNewName)).toMatchObject({ optional: false });
    expect(blockKitViolations(view, 'modal')).toEqual([]);
  });

  it('picks the supplier a review card asked to connect, and none that is not listed', () => {
    const suppliers = [row({}), row({ id: 'cmsupplier0002', name: 'Dhaka Knit' })];
    const pick = (preselected: string | null) =>
      buildSuppliersModal({ brandName: 'Valden', suppliers, preselected }).blocks.find(
        (block) => block.block_id === BLOCK.supplierPick,
      );
    expect(pick('cmsupplier0002')).toMatchObject({
      element: { initial_option: { value: 'cmsupplier0002', text: { text: 'Dhaka Knit' } } },
    });
    expect(text(pick('cmelsewhere01'))).not.toContain('initial_option');
    expect(text(pick(null))).not.toContain('initial_option');
  });

  it('offers at most a select’s 100 options however many suppliers there are', () => {
    const many = Array.from({ length: 130 }, (_, i) => row({ id: `cmsupplier${String(i).padStart(4, '0')}` }));
    const view = buildSuppliersModal({ brandName: 'Valden', suppliers: many });
    expect(blockKitViolations(view, 'modal')).toEqual([]);
    expect(text(view)).toContain('…and 90 more.');
  });
});

describe('parseSuppliersModal', () => {
  it('reads a picked supplier or a new name, and the channel', () => {
    expect(parseSuppliersModal(values('cmsupplier0001', null, 'C0NINGBO01'))).toEqual({
      ok: true,
      value: { supplier: { id: 'cmsupplier0001' }, channelId: 'C0NINGBO01' },
    });
    expect(parseSuppliersModal(values(null, '  Dhaka   Knit ', 'G0PRIVATE1'))).toEqual({
      ok: true,
      value: { supplier: { name: 'Dhaka Knit' }, channelId: 'G0PRIVATE1' },
    });
  });

  it('refuses neither or both suppliers, and a missing or malformed channel, with field errors', () => {
    expect(parseSuppliersModal(values(null, null, 'C0NINGBO01'))).toMatchObject({
      ok: false,
      errors: { [BLOCK.supplierPick]: expect.stringContaining('Pick a supplier') },
    });
    expect(parseSuppliersModal(values('cmsupplier0001', 'Dhaka Knit', 'C0NINGBO01'))).toMatchObject({
      ok: false,
      errors: { [BLOCK.supplierPick]: expect.stringContaining('not both') },
    });
    expect(parseSuppliersModal(values('cmsupplier0001', null, null))).toMatchObject({
      ok: false,
      errors: { [BLOCK.supplierChannel]: expect.any(String) },
    });
    expect(parseSuppliersModal(values('cmsupplier0001', null, 'C0<!here>'))).toMatchObject({ ok: false });
  });
});

describe('buildSupplierWelcome', () => {
  it('names the brand and who connected the channel, escaped, within Block Kit’s limits', () => {
    const welcome = buildSupplierWelcome({ brandName: 'Valden & Co', supplierName: 'Ningbo <b>', by: 'U0APPROVE1' });
    expect(text(welcome.blocks)).toContain('Valden &amp; Co');
    expect(text(welcome.blocks)).toContain('Ningbo &lt;b&gt;');
    expect(text(welcome.blocks)).toContain('<@U0APPROVE1>');
    expect(blockKitViolations(welcome, 'message')).toEqual([]);
  });
});
