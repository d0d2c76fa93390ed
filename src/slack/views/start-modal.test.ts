import { describe, expect, it } from 'vitest';
import { ACTION, BLOCK, CALLBACK, quotationRefCodec } from '../ids.js';
import { NOTES_MAX, buildStartModal, parseStartModal } from './start-modal.js';
import { HOSTILE, elements, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

const QT = 'clquotation00000000000001';

const model = {
  quotationId: QT,
  defaults: { mode: 'balanced' as const, rounds: 4, questionBudget: 3 },
  fileName: 'quote-march.xlsx',
  supplierName: 'Valden Textiles',
  lineCount: 54,
  quotedTotal: 41650,
  currency: 'USD',
  simulatedSuppliers: [
    { code: 'SUP-002', name: 'Alpine Premium' },
    { code: 'SUP-003', name: 'RapidGear Co' },
  ],
};
/** The day the tests submit on: a delivery date must come after it. */
const NOW = new Date('2026-03-10T15:00:00Z');

/** A view.state.values as Slack sends it for this modal. */
function values(v: {
  mode?: string;
  rounds?: string;
  budget?: string | null;
  target?: string | null;
  walkAway?: string | null;
  notes?: string | null;
  requiredBy?: string | null;
  maxLeadTime?: string | null;
  sourcing?: string | null;
  /** Ticked suppliers; undefined: the block is absent (an older modal). */
  invited?: string[];
}) {
  return {
    [BLOCK.startRequiredBy]: { [ACTION.startRequiredBy]: { type: 'datepicker', selected_date: v.requiredBy ?? null } },
    [BLOCK.startMaxLeadTime]: { [ACTION.startMaxLeadTime]: { type: 'number_input', value: v.maxLeadTime ?? null } },
    [BLOCK.startSourcing]: {
      [ACTION.startSourcing]: { type: 'radio_buttons', selected_option: v.sourcing ? { value: v.sourcing } : null },
    },
    ...(v.invited === undefined
      ? {}
      : {
          [BLOCK.startInvited]: {
            [ACTION.startInvited]: { type: 'checkboxes', selected_options: v.invited.map((value) => ({ value })) },
          },
        }),
    [BLOCK.startMode]: {
      [ACTION.startMode]: { type: 'static_select', selected_option: v.mode ? { value: v.mode } : null },
    },
    [BLOCK.startRounds]: {
      [ACTION.startRounds]: { type: 'static_select', selected_option: v.rounds ? { value: v.rounds } : null },
    },
    [BLOCK.startQuestionBudget]: { [ACTION.startQuestionBudget]: { type: 'number_input', value: v.budget ?? '3' } },
    [BLOCK.startTargetTotal]: { [ACTION.startTargetTotal]: { type: 'number_input', value: v.target ?? null } },
    [BLOCK.startWalkAwayTotal]: { [ACTION.startWalkAwayTotal]: { type: 'number_input', value: v.walkAway ?? null } },
    [BLOCK.startNotes]: { [ACTION.startNotes]: { type: 'plain_text_input', value: v.notes ?? null } },
  };
}

describe('buildStartModal', () => {
  it('builds the modal with its inputs and defaults', () => {
    const view = buildStartModal(model);
    expectNoViolations(view, 'modal');
    expect(view.callback_id).toBe(CALLBACK.startModal);
    expect(quotationRefCodec.decode(view.private_metadata)).toEqual({ qt: QT });
    expect(view.title.text).toBe('Start negotiation');
    expect(view.submit?.text).toBe('Start');

    const found = elements(view);
    const mode = found.find((e) => e.actionId === ACTION.startMode);
    const modeOptions = mode?.raw.options as { value: string; description: { text: string } }[];
    expect(modeOptions.map((o) => o.value)).toEqual(['balanced', 'cost', 'quality', 'speed', 'cashflow']);
    expect(modeOptions.find((o) => o.value === 'cost')?.description.text).toBe(
      'Price 40 · Quality 15 · Lead 15 · Terms 20 · Reliab. 10',
    );
    expect((mode?.raw.initial_option as { value: string }).value).toBe('balanced');
    const rounds = found.find((e) => e.actionId === ACTION.startRounds);
    expect((rounds?.raw.options as { value: string }[]).map((o) => o.value)).toEqual(['1', '2', '3', '4', '5']);
    expect((rounds?.raw.initial_option as { value: string }).value).toBe('4');
    const budget = found.find((e) => e.actionId === ACTION.startQuestionBudget);
    expect(budget?.raw).toMatchObject({ type: 'number_input', initial_value: '3', min_value: '0', max_value: '10' });
    expect(found.find((e) => e.actionId === ACTION.startTargetTotal)?.raw.is_decimal_allowed).toBe(true);
    expect(found.find((e) => e.actionId === ACTION.startNotes)?.raw).toMatchObject({
      multiline: true,
      max_length: 1000,
    });
    const text = visibleText(view);
    expect(text).toContain('quote-march.xlsx');
    expect(text).toContain('$41,650.00');
    expect(text).toContain('Target total (USD)');

    // The mandate's defaults are shown: no deadline, the best award, every simulated supplier invited.
    const date = found.find((e) => e.actionId === ACTION.startRequiredBy);
    expect(date?.raw).toMatchObject({ type: 'datepicker' });
    expect(date?.raw.initial_date).toBeUndefined();
    expect(found.find((e) => e.actionId === ACTION.startMaxLeadTime)?.raw).toMatchObject({
      type: 'number_input',
      is_decimal_allowed: false,
      min_value: '1',
      max_value: '3650',
    });
    const sourcing = found.find((e) => e.actionId === ACTION.startSourcing);
    expect((sourcing?.raw.options as { value: string }[]).map((o) => o.value)).toEqual(['any', 'single', 'split']);
    expect((sourcing?.raw.initial_option as { value: string }).value).toBe('any');
    const invited = found.find((e) => e.actionId === ACTION.startInvited);
    expect((invited?.raw.options as { value: string }[]).map((o) => o.value)).toEqual(['SUP-002', 'SUP-003']);
    expect((invited?.raw.initial_options as { value: string }[]).map((o) => o.value)).toEqual(['SUP-002', 'SUP-003']);
    expect(text).toContain('Alpine Premium (simulated)');
  });

  it('offers the simulated suppliers unticked, as market references, where real suppliers are connected', () => {
    const found = elements(buildStartModal({ ...model, hasConnectedSuppliers: true }));
    const invited = found.find((e) => e.actionId === ACTION.startInvited);
    expect((invited?.raw.options as { value: string }[]).map((o) => o.value)).toEqual(['SUP-002', 'SUP-003']);
    expect(invited?.raw.initial_options).toBeUndefined();
    const text = JSON.stringify(buildStartModal({ ...model, hasConnectedSuppliers: true }));
    expect(text).toContain('Market references (simulated)');
    expect(text).toContain('not real companies');
  });

  it('lists the other connected suppliers, ticked, and invites those left ticked beside the references ticked', () => {
    const connectedSuppliers = [
      { code: 'SUP-005', name: 'Dhaka Knit Ltd' },
      { code: 'SUP-006', name: HOSTILE },
    ];
    const view = buildStartModal({ ...model, hasConnectedSuppliers: true, connectedSuppliers });
    const connected = elements(view).find((e) => e.actionId === ACTION.startConnected);
    expect((connected?.raw.options as { value: string }[]).map((o) => o.value)).toEqual(['SUP-005', 'SUP-006']);
    expect((connected?.raw.initial_options as { value: string }[]).map((o) => o.value)).toEqual(['SUP-005', 'SUP-006']);
    expect(visibleText(view)).toContain('Dhaka Knit Ltd');
    expect(visibleText(view)).not.toContain('Dhaka Knit Ltd (simulated)');
    expectNoInjection(view);
    expectNoViolations(view, 'modal');
    expect(elements(buildStartModal(model)).map((e) => e.actionId)).not.toContain(ACTION.startConnected);

    const ticked = (connectedTicked: string[], invited: string[]) => ({
      ...values({ mode: 'balanced', rounds: '4', invited }),
      [BLOCK.startConnected]: {
        [ACTION.startConnected]: { type: 'checkboxes', selected_options: connectedTicked.map((value) => ({ value })) },
      },
    });
    expect(parseStartModal(ticked(['SUP-005'], ['SUP-003']), NOW)).toMatchObject({
      ok: true,
      value: { invitedSuppliers: ['SUP-003', 'SUP-005'] },
    });
    // Nothing ticked in either: only the quoting supplier negotiates.
    expect(parseStartModal(ticked([], []), NOW)).toMatchObject({ ok: true, value: { invitedSuppliers: [] } });
  });

  it('says whether the quoting supplier answers in person, in its channel, or is played by an agent', () => {
    expect(visibleText(buildStartModal({ ...model, quotingSupplierChannel: 'C0NINGBO01' }))).toContain(
      'Valden Textiles answers in person in <#C0NINGBO01>',
    );
    expect(visibleText(buildStartModal(model))).toContain('an agent plays its side');
  });

  it('asks, where real suppliers are connected, how many business days they have to answer (default 2)', () => {
    const asked = elements(buildStartModal({ ...model, hasConnectedSuppliers: true }));
    expect(asked.find((e) => e.actionId === ACTION.startReplyDays)?.raw).toMatchObject({
      type: 'number_input',
      initial_value: '2',
      min_value: '1',
      max_value: '20',
    });
    expect(elements(buildStartModal(model)).map((e) => e.actionId)).not.toContain(ACTION.startReplyDays);
    const replyDays = (value: string | null) => ({
      ...values({ mode: 'balanced', rounds: '4' }),
      [BLOCK.startReplyDays]: { [ACTION.startReplyDays]: { type: 'number_input', value } },
    });
    expect(parseStartModal(replyDays('5'), NOW)).toMatchObject({ ok: true, value: { supplierReplyDays: 5 } });
    expect(parseStartModal(replyDays(null), NOW)).toMatchObject({ ok: true, value: { supplierReplyDays: 2 } });
    expect(parseStartModal(replyDays('0'), NOW)).toMatchObject({
      ok: false,
      errors: { [BLOCK.startReplyDays]: expect.stringContaining('from 1 to 20') },
    });
    // A modal that did not ask carries nothing: the negotiation keeps the default.
    const parsed = parseStartModal(values({ mode: 'balanced', rounds: '4' }), NOW);
    expect(parsed.ok && 'supplierReplyDays' in parsed.value).toBe(false);
  });

  it('leaves the invitation out when there is no simulated supplier, and escapes hostile supplier names', () => {
    expect(elements(buildStartModal({ ...model, simulatedSuppliers: [] })).map((e) => e.actionId)).not.toContain(
      ACTION.startInvited,
    );
    const hostile = buildStartModal({ ...model, simulatedSuppliers: [{ code: 'SUP-002', name: HOSTILE.repeat(20) }] });
    expectNoViolations(hostile, 'modal');
    expectNoInjection(hostile);
  });

  it('uses the workspace defaults and falls back on odd ones', () => {
    const view = buildStartModal({ ...model, defaults: { mode: 'speed', rounds: 2, questionBudget: 0 } });
    const found = elements(view);
    expect((found.find((e) => e.actionId === ACTION.startMode)?.raw.initial_option as { value: string }).value).toBe(
      'speed',
    );
    expect((found.find((e) => e.actionId === ACTION.startRounds)?.raw.initial_option as { value: string }).value).toBe(
      '2',
    );
    expect(found.find((e) => e.actionId === ACTION.startQuestionBudget)?.raw.initial_value).toBe('0');
    const odd = elements(buildStartModal({ ...model, defaults: { mode: 'balanced', rounds: 9, questionBudget: 50 } }));
    expect((odd.find((e) => e.actionId === ACTION.startRounds)?.raw.initial_option as { value: string }).value).toBe(
      '4',
    );
    expect(odd.find((e) => e.actionId === ACTION.startQuestionBudget)?.raw.initial_value).toBe('10');
  });

  it('escapes a hostile file and supplier name', () => {
    const view = buildStartModal({
      ...model,
      fileName: HOSTILE.repeat(100),
      supplierName: HOSTILE.repeat(100),
      currency: HOSTILE,
    });
    expectNoViolations(view, 'modal');
    expectNoInjection(view);
  });
});

describe('parseStartModal', () => {
  it('reads a full, valid submission', () => {
    expect(
      parseStartModal(
        values({ mode: 'cost', rounds: '3', budget: '5', target: '40000', walkAway: '45,000.50', notes: ' hurry ' }),
      ),
    ).toEqual({
      ok: true,
      value: {
        mode: 'cost',
        maxRounds: 3,
        questionBudget: 5,
        targetTotal: 40000,
        walkAwayTotal: 45000.5,
        requiredBy: null,
        maxLeadTimeDays: null,
        sourcing: 'any',
        invitedSuppliers: null,
        notes: 'hurry',
      },
    });
  });

  it('reads the mandate: a delivery date or a longest lead time, single or split, the suppliers invited', () => {
    const dated = parseStartModal(
      values({ mode: 'speed', rounds: '4', requiredBy: '2026-04-09', sourcing: 'split', invited: ['SUP-003'] }),
      NOW,
    );
    expect(dated).toMatchObject({
      ok: true,
      value: { requiredBy: '2026-04-09', maxLeadTimeDays: null, sourcing: 'split', invitedSuppliers: ['SUP-003'] },
    });
    const days = parseStartModal(values({ mode: 'cost', rounds: '4', maxLeadTime: '21', sourcing: 'single' }), NOW);
    expect(days).toMatchObject({ ok: true, value: { requiredBy: null, maxLeadTimeDays: 21, sourcing: 'single' } });
    // Nothing ticked invites nobody but the quoting supplier; an absent block (an older modal) invites everyone.
    expect(parseStartModal(values({ mode: 'cost', rounds: '4', invited: [] }), NOW)).toMatchObject({
      ok: true,
      value: { invitedSuppliers: [] },
    });
    expect(parseStartModal(values({ mode: 'cost', rounds: '4' }), NOW)).toMatchObject({
      ok: true,
      value: { invitedSuppliers: null, sourcing: 'any' },
    });
  });

  it('refuses a date that is past, today or not a date, both a date and days, and days out of range', () => {
    const errorsOf = (v: Parameters<typeof values>[0]) => {
      const result = parseStartModal(values({ mode: 'cost', rounds: '4', ...v }), NOW);
      return result.ok ? {} : result.errors;
    };
    for (const requiredBy of ['2026-03-09', '2026-03-10', '2026-02-30', 'soon'])
      expect(errorsOf({ requiredBy }), requiredBy).toEqual({ [BLOCK.startRequiredBy]: 'Pick a date after today.' });
    expect(errorsOf({ requiredBy: '2026-03-11' })).toEqual({});
    expect(errorsOf({ requiredBy: '2026-04-01', maxLeadTime: '20' })).toEqual({
      [BLOCK.startMaxLeadTime]: 'Give a delivery date or a longest lead time, not both.',
    });
    for (const maxLeadTime of ['0', '-3', '4.5', '3651'])
      expect(errorsOf({ maxLeadTime }), maxLeadTime).toEqual({
        [BLOCK.startMaxLeadTime]: 'Enter a whole number from 1 to 3650.',
      });
    expect(errorsOf({ sourcing: 'three suppliers' })).toEqual({
      [BLOCK.startSourcing]: 'Choose one supplier, a split, or the best award.',
    });
  });

  it('leaves optional fields null', () => {
    const result = parseStartModal(values({ mode: 'balanced', rounds: '4' }));
    expect(result).toEqual({
      ok: true,
      value: {
        mode: 'balanced',
        maxRounds: 4,
        questionBudget: 3,
        targetTotal: null,
        walkAwayTotal: null,
        requiredBy: null,
        maxLeadTimeDays: null,
        sourcing: 'any',
        invitedSuppliers: null,
        notes: null,
      },
    });
  });

  it('wants the walk-away at least the target', () => {
    expect(parseStartModal(values({ mode: 'cost', rounds: '3', target: '50000', walkAway: '40000' }))).toEqual({
      ok: false,
      errors: { [BLOCK.startWalkAwayTotal]: 'The walk-away total must be at least the target total.' },
    });
    expect(parseStartModal(values({ mode: 'cost', rounds: '3', target: '50000', walkAway: '50000' })).ok).toBe(true);
  });

  it('rejects non-positive, malformed and over-precise numbers and out-of-range choices', () => {
    const result = parseStartModal(
      values({
        mode: 'custom',
        rounds: '9',
        budget: '11',
        target: '0',
        walkAway: '12.345',
        notes: 'x'.repeat(NOTES_MAX + 1),
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(
      [
        BLOCK.startMode,
        BLOCK.startRounds,
        BLOCK.startQuestionBudget,
        BLOCK.startTargetTotal,
        BLOCK.startWalkAwayTotal,
        BLOCK.startNotes,
      ].sort(),
    );
    expect(result.errors[BLOCK.startTargetTotal]).toBe('Enter an amount above zero.');
    expect(parseStartModal(values({ mode: 'cost', rounds: '3', target: '-5' })).ok).toBe(false);
    expect(parseStartModal(values({ mode: 'cost', rounds: '3', budget: '2.5' })).ok).toBe(false);
  });

  it('treats a garbage payload as missing answers, not a crash', () => {
    const result = parseStartModal({ nonsense: 1 });
    expect(result.ok).toBe(false);
    expect(parseStartModal(null).ok).toBe(false);
  });
});

describe('the start modal in a channel shared with another organisation', () => {
  const confirm = (ticked: boolean) => ({
    [BLOCK.startExternalConfirm]: {
      [ACTION.startExternalConfirm]: {
        type: 'checkboxes',
        selected_options: ticked ? [{ text: { type: 'plain_text', text: 'x' }, value: 'post_here' }] : [],
      },
    },
  });

  it('asks for a required tick there, and only there', () => {
    const shared = buildStartModal({ ...model, externalChannel: true });
    const input = shared.blocks.find((b) => b.block_id === BLOCK.startExternalConfirm);
    expect(input).toMatchObject({ type: 'input', element: { type: 'checkboxes' } });
    expect(input && 'optional' in input ? input.optional : undefined).toBeUndefined();
    expect(visibleText(shared)).toMatch(/outside your organisation/);
    expectNoViolations(shared, 'modal');
    expect(buildStartModal(model).blocks.some((b) => b.block_id === BLOCK.startExternalConfirm)).toBe(false);
  });

  it('reads the tick back, and leaves it out for a modal that did not ask', () => {
    const base = values({ mode: 'balanced', rounds: '3', budget: '2' });
    const ticked = parseStartModal({ ...base, ...confirm(true) }, NOW);
    const unticked = parseStartModal({ ...base, ...confirm(false) }, NOW);
    expect(ticked).toMatchObject({ ok: true, value: { externalChannelConfirmed: true } });
    expect(unticked).toMatchObject({ ok: true, value: { externalChannelConfirmed: false } });
    const internal = parseStartModal(base, NOW);
    expect(internal.ok && 'externalChannelConfirmed' in internal.value).toBe(false);
  });
});
