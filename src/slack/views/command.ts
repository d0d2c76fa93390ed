// `/parley`: help (ephemeral), the channel's negotiations with a jump link each, and the settings modal for admins
// (approvers, the two-approver amount, the start modal's defaults) with its parser.
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { type PresetMode, QUESTION_BUDGET_DEFAULT, ROUNDS } from '../../config/business-rules.js';
import { ACTION, BLOCK, CALLBACK, SLASH_COMMAND, settingsVersionCodec } from '../ids.js';
import { type SlackMessage, button, context, header, money, plural, safeUrl, section } from './blocks.js';
import { inline, isSlackUserId, label } from './escape.js';
import { ModalState, type ParseResult, parseAmount, parseWhole } from './modal-state.js';
import { MODE_LABEL, QUESTION_BUDGET_MAX, START_MODES } from './start-modal.js';

export const COMMANDS: readonly { usage: string; does: string }[] = [
  { usage: `${SLASH_COMMAND} help`, does: 'This list.' },
  { usage: `${SLASH_COMMAND} status`, does: "This channel's negotiations and where each one stands." },
  {
    usage: `${SLASH_COMMAND} negotiate`,
    does:
      'Negotiate a quotation shared in this channel: add its link, or pick one of the recent ones. Or use ' +
      "*Negotiate this quote* from the message's ⋯ menu.",
  },
  {
    usage: `${SLASH_COMMAND} suppliers`,
    does: 'Connect a supplier to a Slack Connect channel shared with it, where Parley negotiates with its people (admins).',
  },
  { usage: `${SLASH_COMMAND} settings`, does: 'Approvers, the two-approver amount and negotiation defaults (admins).' },
  {
    usage: `${SLASH_COMMAND} catalog`,
    does: 'Import your products from a CSV or XLSX: see what changes, then merge or replace (admins).',
  },
];

export function buildHelp(): SlackMessage {
  return {
    text: `Parley commands: ${COMMANDS.map((c) => c.usage).join(', ')}`,
    blocks: [
      section(
        '*Parley* reads a supplier quotation shared as an .xlsx file in a channel it is in, asks you to confirm ' +
          'unsure catalog matches, negotiates with three suppliers in the thread and drafts a purchase order that ' +
          'an approver approves. Nothing is bought without a person clicking Approve.',
      ),
      section(COMMANDS.map((c) => `\`${c.usage}\` — ${c.does}`).join('\n')),
    ],
  };
}

export interface ChannelNegotiation {
  title: string;
  stage: string;
  permalink: string | null;
}

export const CHANNEL_STATUS_MAX = 20;

export function buildChannelStatus(model: { negotiations: ChannelNegotiation[] }): SlackMessage {
  const items = model.negotiations;
  const blocks: KnownBlock[] = [header(`Negotiations in this channel (${items.length})`)];
  if (items.length === 0) {
    blocks.push(context(['None yet. Share an .xlsx quotation here to start one.']));
  }
  items.slice(0, CHANNEL_STATUS_MAX).forEach((n, i) => {
    const block = section(`*${inline(n.title, 120)}*\n${inline(n.stage, 200)}`);
    const url = safeUrl(n.permalink);
    if (url) block.accessory = button({ text: 'Open thread', actionId: ACTION.openThread, url, value: String(i) });
    blocks.push(block);
  });
  if (items.length > CHANNEL_STATUS_MAX) {
    blocks.push(context([`…and ${plural(items.length - CHANNEL_STATUS_MAX, 'older one')}.`]));
  }
  return { text: `${plural(items.length, 'negotiation')} in this channel`, blocks };
}

// ───────────────────────────── Settings ─────────────────────────────

/** What `parseSettingsModal` returns: the brand's name and the shape the workspace settings are stored in. */
export interface SettingsValues {
  /** The brand Parley buys for (the Slack team's name until someone changes it). */
  brandName: string;
  approvers: string[];
  dualApprovalAboveUsd: number;
  defaultMode: PresetMode;
  defaultRounds: number;
  defaultQuestionBudget: number;
  /** Alex may name competitors, their prices and problems to other suppliers. */
  discloseCompetitors: boolean;
  /** Alex's messages to connected suppliers go out without Send while within the mandate. */
  autoSendToSuppliers: boolean;
}

export interface SettingsModel extends Omit<SettingsValues, 'discloseCompetitors' | 'autoSendToSuppliers'> {
  /** Off when absent. */
  discloseCompetitors?: boolean;
  /** Off when absent. */
  autoSendToSuppliers?: boolean;
  /** The settings version shown, carried in private_metadata: a save over a newer version is refused. */
  version: number;
}

export const BRAND_NAME_MAX = 80;

/** The one option of the disclosure checkbox. */
const DISCLOSE_VALUE = 'disclose';
const discloseOption: PlainTextOption = {
  text: label('Alex may name competitors and their prices to other suppliers'),
  value: DISCLOSE_VALUE,
};
/** The one option of the auto-send checkbox. */
const AUTO_SEND_VALUE = 'auto_send';
const autoSendOption: PlainTextOption = {
  text: label('Send Alex’s messages to connected suppliers without asking, while within the mandate'),
  value: AUTO_SEND_VALUE,
};

export const APPROVERS_MAX = 20;

function modeOption(mode: PresetMode): PlainTextOption {
  return { text: label(MODE_LABEL[mode]), value: mode };
}

function roundOption(n: number): PlainTextOption {
  return { text: label(n === 1 ? '1 round' : `${n} rounds`), value: String(n) };
}

export function buildSettingsModal(model: SettingsModel): ModalView {
  const rounds = Array.from({ length: ROUNDS.max - ROUNDS.min + 1 }, (_, i) => ROUNDS.min + i);
  const initialUsers = model.approvers.filter(isSlackUserId).slice(0, APPROVERS_MAX);
  const mode = START_MODES.includes(model.defaultMode) ? model.defaultMode : 'balanced';
  const defaultRounds = rounds.includes(model.defaultRounds) ? model.defaultRounds : ROUNDS.default;
  const budget =
    Number.isInteger(model.defaultQuestionBudget) &&
    model.defaultQuestionBudget >= 0 &&
    model.defaultQuestionBudget <= QUESTION_BUDGET_MAX
      ? model.defaultQuestionBudget
      : QUESTION_BUDGET_DEFAULT;
  const amount = Number.isFinite(model.dualApprovalAboveUsd) && model.dualApprovalAboveUsd > 0;

  return {
    type: 'modal',
    callback_id: CALLBACK.settingsModal,
    private_metadata: settingsVersionCodec.encode({ sv: model.version }),
    title: label('Parley settings', 24),
    submit: label('Save', 24),
    close: label('Cancel', 24),
    blocks: [
      {
        type: 'input',
        block_id: BLOCK.settingsBrandName,
        label: label('Brand', 2000),
        hint: label('The brand Parley buys for: the name its negotiator gives suppliers.', 2000),
        element: {
          type: 'plain_text_input',
          action_id: ACTION.settingsBrandName,
          max_length: BRAND_NAME_MAX,
          ...(model.brandName.trim() ? { initial_value: model.brandName.slice(0, BRAND_NAME_MAX) } : {}),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.settingsApprovers,
        label: label('Approvers', 2000),
        hint: label(
          'They approve purchase orders and can change these settings, as can this Slack workspace’s admins.',
          2000,
        ),
        element: {
          type: 'multi_users_select',
          action_id: ACTION.settingsApprovers,
          max_selected_items: APPROVERS_MAX,
          ...(initialUsers.length > 0 ? { initial_users: initialUsers } : {}),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.settingsDualApproval,
        label: label('Two approvers above (USD)', 2000),
        hint: label(
          `A PO whose landed cost is above this needs two different approvers. Now ${money(model.dualApprovalAboveUsd, 'USD')}.`,
          2000,
        ),
        element: {
          type: 'number_input',
          action_id: ACTION.settingsDualApproval,
          is_decimal_allowed: true,
          min_value: '0.01',
          ...(amount ? { initial_value: String(model.dualApprovalAboveUsd) } : {}),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.settingsDefaultMode,
        label: label('Default mode', 2000),
        element: {
          type: 'static_select',
          action_id: ACTION.settingsDefaultMode,
          options: START_MODES.map(modeOption),
          initial_option: modeOption(mode),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.settingsDefaultRounds,
        label: label('Default rounds', 2000),
        element: {
          type: 'static_select',
          action_id: ACTION.settingsDefaultRounds,
          options: rounds.map(roundOption),
          initial_option: roundOption(defaultRounds),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.settingsDefaultQuestionBudget,
        label: label('Default question budget', 2000),
        element: {
          type: 'number_input',
          action_id: ACTION.settingsDefaultQuestionBudget,
          is_decimal_allowed: false,
          min_value: '0',
          max_value: String(QUESTION_BUDGET_MAX),
          initial_value: String(budget),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.settingsDiscloseCompetitors,
        label: label('Competitors', 2000),
        optional: true,
        hint: label(
          'Off: Alex tells a supplier only how much lower a competing offer is, never who made it, its exact price ' +
            'or its problems.',
          2000,
        ),
        element: {
          type: 'checkboxes',
          action_id: ACTION.settingsDiscloseCompetitors,
          options: [discloseOption],
          ...(model.discloseCompetitors === true ? { initial_options: [discloseOption] } : {}),
        },
      },
      {
        type: 'input',
        block_id: BLOCK.settingsAutoSend,
        label: label('Connected suppliers', 2000),
        optional: true,
        hint: label(
          'Off: every message for a supplier in Slack Connect waits in the thread for Send. On: one that asks at or ' +
            'under the walk-away total, or accepts an offer under it, is sent at once; anything else still waits.',
          2000,
        ),
        element: {
          type: 'checkboxes',
          action_id: ACTION.settingsAutoSend,
          options: [autoSendOption],
          ...(model.autoSendToSuppliers === true ? { initial_options: [autoSendOption] } : {}),
        },
      },
    ],
  };
}

/** `view.state.values` of the settings modal → the settings, or field errors keyed by block id. */
export function parseSettingsModal(stateValues: unknown): ParseResult<SettingsValues> {
  const state = new ModalState(stateValues);
  const errors: Record<string, string> = {};

  const brandName = (state.text(BLOCK.settingsBrandName, ACTION.settingsBrandName) ?? '').trim();
  if (brandName === '') errors[BLOCK.settingsBrandName] = 'Enter the brand’s name.';
  else if (brandName.length > BRAND_NAME_MAX) errors[BLOCK.settingsBrandName] = `At most ${BRAND_NAME_MAX} characters.`;

  const users = state.users(BLOCK.settingsApprovers, ACTION.settingsApprovers) ?? [];
  const approvers = [...new Set(users)];
  if (approvers.length === 0) errors[BLOCK.settingsApprovers] = 'Choose at least one approver.';
  else if (!approvers.every(isSlackUserId)) errors[BLOCK.settingsApprovers] = 'Choose people from this workspace.';
  else if (approvers.length > APPROVERS_MAX) errors[BLOCK.settingsApprovers] = `Choose at most ${APPROVERS_MAX}.`;

  const amount = parseAmount(state.text(BLOCK.settingsDualApproval, ACTION.settingsDualApproval));
  if (!amount.ok) errors[BLOCK.settingsDualApproval] = amount.error;
  else if (amount.value === null) errors[BLOCK.settingsDualApproval] = 'Enter an amount in US dollars.';

  const modeRaw = state.selected(BLOCK.settingsDefaultMode, ACTION.settingsDefaultMode);
  const mode = START_MODES.find((m) => m === modeRaw);
  if (!mode) errors[BLOCK.settingsDefaultMode] = 'Choose a mode.';

  const rounds = parseWhole(
    state.selected(BLOCK.settingsDefaultRounds, ACTION.settingsDefaultRounds),
    ROUNDS.min,
    ROUNDS.max,
  );
  if (!rounds.ok) errors[BLOCK.settingsDefaultRounds] = rounds.error;
  else if (rounds.value === null) errors[BLOCK.settingsDefaultRounds] = 'Choose the number of rounds.';

  const budget = parseWhole(
    state.text(BLOCK.settingsDefaultQuestionBudget, ACTION.settingsDefaultQuestionBudget),
    0,
    QUESTION_BUDGET_MAX,
  );
  if (!budget.ok) errors[BLOCK.settingsDefaultQuestionBudget] = budget.error;
  else if (budget.value === null) errors[BLOCK.settingsDefaultQuestionBudget] = 'Enter a number.';

  if (
    Object.keys(errors).length > 0 ||
    !amount.ok ||
    amount.value === null ||
    !mode ||
    !rounds.ok ||
    rounds.value === null ||
    !budget.ok ||
    budget.value === null
  ) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: {
      brandName,
      approvers,
      dualApprovalAboveUsd: amount.value,
      defaultMode: mode,
      defaultRounds: rounds.value,
      defaultQuestionBudget: budget.value,
      discloseCompetitors: state
        .checked(BLOCK.settingsDiscloseCompetitors, ACTION.settingsDiscloseCompetitors)
        .includes(DISCLOSE_VALUE),
      autoSendToSuppliers: state.checked(BLOCK.settingsAutoSend, ACTION.settingsAutoSend).includes(AUTO_SEND_VALUE),
    },
  };
}
