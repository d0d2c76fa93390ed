import { describe, expect, it } from 'vitest';
import { ACTION, BLOCK, CALLBACK, settingsVersionCodec } from '../ids.js';
import {
  APPROVERS_MAX,
  BRAND_NAME_MAX,
  CHANNEL_STATUS_MAX,
  buildChannelStatus,
  buildHelp,
  buildSettingsModal,
  parseSettingsModal,
} from './command.js';
import {
  HOSTILE,
  buttons,
  elements,
  expectNoInjection,
  expectNoViolations,
  visibleText,
} from '../../../test/support/views.js';

const LINK = 'https://acme.slack.com/archives/C0123/p1700000000000100';

describe('buildHelp', () => {
  it('lists the four commands', () => {
    const m = buildHelp();
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    for (const c of ['`/parley help`', '`/parley status`', '`/parley negotiate`', '`/parley settings`']) {
      expect(text).toContain(c);
    }
    expect(text).toContain('Negotiate this quote');
    expect(m.text).toContain('/parley settings');
  });
});

describe('buildChannelStatus', () => {
  it("lists the channel's negotiations with stage and jump link", () => {
    const m = buildChannelStatus({
      negotiations: [
        { title: 'quote-march.xlsx', stage: 'Negotiating · round 2 of 4', permalink: LINK },
        { title: 'quote-feb.xlsx', stage: 'PO approved', permalink: null },
      ],
    });
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('Negotiations in this channel (2)');
    expect(text).toContain('*quote-march.xlsx*\nNegotiating · round 2 of 4');
    expect(text).toContain('*quote-feb.xlsx*\nPO approved');
    expect(buttons(m).map((b) => [b.url, b.actionId])).toEqual([[LINK, ACTION.openThread]]);
    expect(m.text).toBe('2 negotiations in this channel');
  });

  it('has an empty state, caps long lists and escapes', () => {
    expect(visibleText(buildChannelStatus({ negotiations: [] }))).toContain('None yet');
    const m = buildChannelStatus({
      negotiations: Array.from({ length: 60 }, () => ({ title: HOSTILE.repeat(20), stage: HOSTILE, permalink: LINK })),
    });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    expect(visibleText(m)).toContain(`…and ${60 - CHANNEL_STATUS_MAX} older ones.`);
  });
});

const settings = {
  brandName: 'Valden Outdoor',
  version: 7,
  approvers: ['U0APPROV1', 'U0APPROV2'],
  dualApprovalAboveUsd: 50000,
  defaultMode: 'cost' as const,
  defaultRounds: 3,
  defaultQuestionBudget: 2,
};

function values(v: {
  brand?: string | null;
  users?: string[] | null;
  amount?: string | null;
  mode?: string | null;
  rounds?: string | null;
  budget?: string | null;
  disclose?: boolean;
  autoSend?: boolean;
}) {
  return {
    [BLOCK.settingsBrandName]: {
      [ACTION.settingsBrandName]: { type: 'plain_text_input', value: v.brand === undefined ? 'Valden' : v.brand },
    },
    [BLOCK.settingsApprovers]: {
      [ACTION.settingsApprovers]: { type: 'multi_users_select', selected_users: v.users ?? [] },
    },
    [BLOCK.settingsDualApproval]: { [ACTION.settingsDualApproval]: { type: 'number_input', value: v.amount ?? null } },
    [BLOCK.settingsDefaultMode]: {
      [ACTION.settingsDefaultMode]: { type: 'static_select', selected_option: v.mode ? { value: v.mode } : null },
    },
    [BLOCK.settingsDefaultRounds]: {
      [ACTION.settingsDefaultRounds]: { type: 'static_select', selected_option: v.rounds ? { value: v.rounds } : null },
    },
    [BLOCK.settingsDefaultQuestionBudget]: {
      [ACTION.settingsDefaultQuestionBudget]: { type: 'number_input', value: v.budget ?? null },
    },
    [BLOCK.settingsDiscloseCompetitors]: {
      [ACTION.settingsDiscloseCompetitors]: {
        type: 'checkboxes',
        selected_options: v.disclose === true ? [{ value: 'disclose', text: { type: 'plain_text', text: 'x' } }] : [],
      },
    },
    [BLOCK.settingsAutoSend]: {
      [ACTION.settingsAutoSend]: {
        type: 'checkboxes',
        selected_options: v.autoSend === true ? [{ value: 'auto_send', text: { type: 'plain_text', text: 'x' } }] : [],
      },
    },
  };
}

describe('buildSettingsModal', () => {
  it('shows the current settings as initial values', () => {
    const view = buildSettingsModal(settings);
    expectNoViolations(view, 'modal');
    expect(view.callback_id).toBe(CALLBACK.settingsModal);
    expect(view.submit?.text).toBe('Save');
    const found = elements(view);
    expect(found.find((e) => e.actionId === ACTION.settingsApprovers)?.raw).toMatchObject({
      type: 'multi_users_select',
      initial_users: ['U0APPROV1', 'U0APPROV2'],
    });
    expect(found.find((e) => e.actionId === ACTION.settingsDualApproval)?.raw.initial_value).toBe('50000');
    expect(found.find((e) => e.actionId === ACTION.settingsBrandName)?.raw.initial_value).toBe('Valden Outdoor');
    // The version shown travels with the modal: a save over a newer one is refused, not lost.
    expect(settingsVersionCodec.decode(view.private_metadata)).toEqual({ sv: 7 });
    expect(
      (found.find((e) => e.actionId === ACTION.settingsDefaultMode)?.raw.initial_option as { value: string }).value,
    ).toBe('cost');
    expect(
      (found.find((e) => e.actionId === ACTION.settingsDefaultRounds)?.raw.initial_option as { value: string }).value,
    ).toBe('3');
    expect(found.find((e) => e.actionId === ACTION.settingsDefaultQuestionBudget)?.raw.initial_value).toBe('2');
    expect(visibleText(view)).toContain('Now $50,000.00');
    // Naming competitors to other suppliers is off until an admin ticks it.
    const disclose = found.find((e) => e.actionId === ACTION.settingsDiscloseCompetitors)?.raw;
    expect(disclose).toMatchObject({ type: 'checkboxes' });
    expect(disclose?.initial_options).toBeUndefined();
    const on = elements(buildSettingsModal({ ...settings, discloseCompetitors: true }));
    expect(on.find((e) => e.actionId === ACTION.settingsDiscloseCompetitors)?.raw.initial_options).toHaveLength(1);
  });

  it('shows a hostile brand name as plain input, within the input’s length', () => {
    const view = buildSettingsModal({ ...settings, brandName: `${HOSTILE}${'x'.repeat(200)}` });
    expectNoViolations(view, 'modal');
    const brand = elements(view).find((e) => e.actionId === ACTION.settingsBrandName)?.raw;
    expect(String(brand?.initial_value).length).toBeLessThanOrEqual(BRAND_NAME_MAX);
  });

  it('drops non-ids from the initial approvers and leaves the list empty when there are none', () => {
    const view = buildSettingsModal({ ...settings, approvers: ['<!channel>', 'U0APPROV1'] });
    expectNoViolations(view, 'modal');
    expect(elements(view).find((e) => e.actionId === ACTION.settingsApprovers)?.raw.initial_users).toEqual([
      'U0APPROV1',
    ]);
    const none = buildSettingsModal({ ...settings, approvers: [] });
    expectNoViolations(none, 'modal');
    expect(elements(none).find((e) => e.actionId === ACTION.settingsApprovers)?.raw.initial_users).toBeUndefined();
  });
});

describe('parseSettingsModal', () => {
  it('reads valid settings (deduplicating approvers)', () => {
    expect(
      parseSettingsModal(
        values({
          brand: '  Fjell Gear  ',
          users: ['U0APPROV1', 'U0APPROV2', 'U0APPROV1'],
          amount: '75000',
          mode: 'speed',
          rounds: '5',
          budget: '0',
        }),
      ),
    ).toEqual({
      ok: true,
      value: {
        brandName: 'Fjell Gear',
        approvers: ['U0APPROV1', 'U0APPROV2'],
        dualApprovalAboveUsd: 75000,
        defaultMode: 'speed',
        defaultRounds: 5,
        defaultQuestionBudget: 0,
        discloseCompetitors: false,
        autoSendToSuppliers: false,
      },
    });
  });

  it('reads the auto-send box: off unless ticked, shown ticked when on', () => {
    const base = { users: ['U0APPROV1'], amount: '1', mode: 'cost', rounds: '1', budget: '1' };
    const ticked = parseSettingsModal(values({ ...base, autoSend: true }));
    expect(ticked.ok && ticked.value.autoSendToSuppliers).toBe(true);
    const unticked = parseSettingsModal(values(base));
    expect(unticked.ok && unticked.value.autoSendToSuppliers).toBe(false);
    const off = elements(buildSettingsModal(settings)).find((e) => e.actionId === ACTION.settingsAutoSend)?.raw;
    expect(off?.initial_options).toBeUndefined();
    const on = elements(buildSettingsModal({ ...settings, autoSendToSuppliers: true }));
    expect(on.find((e) => e.actionId === ACTION.settingsAutoSend)?.raw.initial_options).toHaveLength(1);
  });

  it('reads the competitor-disclosure box: off unless ticked', () => {
    const base = { users: ['U0APPROV1'], amount: '1', mode: 'cost', rounds: '1', budget: '1' };
    const ticked = parseSettingsModal(values({ ...base, disclose: true }));
    expect(ticked.ok && ticked.value.discloseCompetitors).toBe(true);
    const unticked = parseSettingsModal(values(base));
    expect(unticked.ok && unticked.value.discloseCompetitors).toBe(false);
  });

  it('wants a brand name, approvers, a positive amount, a preset mode and numbers in range', () => {
    const result = parseSettingsModal(
      values({ brand: '   ', users: [], amount: '-1', mode: 'custom', rounds: '7', budget: '11' }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(
      [
        BLOCK.settingsBrandName,
        BLOCK.settingsApprovers,
        BLOCK.settingsDualApproval,
        BLOCK.settingsDefaultMode,
        BLOCK.settingsDefaultRounds,
        BLOCK.settingsDefaultQuestionBudget,
      ].sort(),
    );
    expect(
      parseSettingsModal(values({ users: ['not-a-user'], amount: '1', mode: 'cost', rounds: '1', budget: '1' })).ok,
    ).toBe(false);
    const tooMany = Array.from({ length: APPROVERS_MAX + 1 }, (_, i) => `U0APPROV${i}`);
    expect(parseSettingsModal(values({ users: tooMany, amount: '1', mode: 'cost', rounds: '1', budget: '1' })).ok).toBe(
      false,
    );
    expect(parseSettingsModal('garbage').ok).toBe(false);
  });
});
