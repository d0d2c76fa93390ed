// The start modal: how to negotiate a reviewed quotation (mode, rounds, question budget, the buyer's mandate — target,
// walk-away, a delivery date or a maximum lead time, one supplier or a split, which simulated suppliers to invite —
// and notes). Opened by the review's Start negotiation… button; the quotation travels in private_metadata. Every
// field shows its default; bad input comes back as field errors, so a mandate the award must obey is a sane one.
import type { NegotiationRequest } from '../../app-types.js';
import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { SOURCING_PREFERENCES, type SourcingPreference } from '../../negotiation/mandate.js';
import { type PresetMode, QUESTION_BUDGET_DEFAULT, ROUNDS, SCORING_WEIGHTS } from '../../config/business-rules.js';
import { ACTION, BLOCK, CALLBACK, quotationRefCodec } from '../ids.js';
import { context, money, quantity, section } from './blocks.js';
import { channelMention, inline, label, plain } from './escape.js';
import { ModalState, type ParseResult, parseAmount, parseWhole } from './modal-state.js';

export const START_MODES: readonly PresetMode[] = ['balanced', 'cost', 'quality', 'speed', 'cashflow'];
export const MODE_LABEL: Readonly<Record<PresetMode, string>> = {
  balanced: 'Balanced',
  cost: 'Cost',
  quality: 'Quality',
  speed: 'Speed',
  cashflow: 'Cash flow',
};
export const NOTES_MAX = 1000;
export const QUESTION_BUDGET_MAX = 10;
/** The longest lead time the modal takes, in days (the mandate's own limit). */
export const MAX_LEAD_TIME_DAYS = 3650;
export const SOURCING_LABEL: Readonly<Record<SourcingPreference, { text: string; description: string }>> = {
  any: { text: 'Best award', description: 'One supplier or a split, whichever is better after the split overhead' },
  single: { text: 'One supplier', description: 'The whole order goes to one supplier' },
  split: { text: 'Split the order', description: 'Between two or more suppliers' },
};

/** A supplier the buyer may invite (the quoting supplier always takes part): a simulated one, or a connected one. */
export interface InvitableSupplier {
  code: string;
  name: string;
}

export interface StartModalModel {
  quotationId: string;
  defaults: { mode: PresetMode; rounds: number; questionBudget: number };
  /** Shown at the top so the buyer knows which quotation this starts. */
  fileName: string;
  supplierName: string | null;
  lineCount: number;
  quotedTotal: number | null;
  currency: string;
  /** The simulated suppliers: invited by default unless the workspace negotiates with real ones. */
  simulatedSuppliers: readonly InvitableSupplier[];
  /**
   * The workspace has suppliers connected in Slack Connect: the simulated ones are then market references only, left
   * out unless the buyer ticks them (a real workspace should not meet two invented competitors by default).
   */
  hasConnectedSuppliers?: boolean;
  /** The quoting supplier's own Slack Connect channel, when it is connected: it then negotiates as itself there. */
  quotingSupplierChannel?: string | null;
  /**
   * The other suppliers connected in Slack Connect (the quoting one aside): invited by default, each asked to quote in
   * its own channel, and each message to it sent as the buyer decides.
   */
  connectedSuppliers?: readonly InvitableSupplier[];
  /**
   * The quotation's channel has people from another organisation (Slack Connect): the modal asks the buyer, as a
   * required tick, before the thread shows other suppliers, scores and the mandate there.
   */
  externalChannel?: boolean;
}

/** The one option of the shared-channel confirmation. */
const EXTERNAL_CONFIRM_VALUE = 'post_here';
const externalConfirmOption: PlainTextOption = {
  text: label('Post the negotiation in this channel anyway'),
  value: EXTERNAL_CONFIRM_VALUE,
};

/** A required tick for a channel shared with another organisation: Slack will not submit the modal without it. */
function externalConfirmInput(): InputBlock[] {
  return [
    {
      type: 'input',
      block_id: BLOCK.startExternalConfirm,
      label: label('This channel has people from outside your organisation', 2000),
      hint: label(
        'The thread will show the other suppliers, their offers, the scores and your target and walk-away totals to ' +
          'everyone in the channel. To keep them internal, share the quotation in an internal channel instead.',
        2000,
      ),
      element: { type: 'checkboxes', action_id: ACTION.startExternalConfirm, options: [externalConfirmOption] },
    },
  ];
}

/** What the modal asks: how to negotiate, as `beginNegotiation` takes it. */
export type StartOptions = NegotiationRequest;

function weightsDescription(mode: PresetMode): string {
  const w = SCORING_WEIGHTS[mode];
  const pct = (x: number) => Math.round(x * 100);
  const parts = [
    `Price ${pct(w.price)}`,
    `Quality ${pct(w.quality)}`,
    `Lead ${pct(w.leadTime)}`,
    `Terms ${pct(w.terms)}`,
  ];
  if (w.reliability > 0) parts.push(`Reliab. ${pct(w.reliability)}`);
  return parts.join(' · ');
}

function modeOption(mode: PresetMode): PlainTextOption {
  return { text: label(MODE_LABEL[mode]), value: mode, description: label(weightsDescription(mode)) };
}

function roundOption(n: number): PlainTextOption {
  return { text: label(n === 1 ? '1 round' : `${n} rounds`), value: String(n) };
}

function sourcingOption(sourcing: SourcingPreference): PlainTextOption {
  const { text, description } = SOURCING_LABEL[sourcing];
  return { text: label(text), value: sourcing, description: label(description) };
}

function supplierOption(supplier: InvitableSupplier): PlainTextOption {
  // The value is the supplier's code: short and ours. The name says it is simulated, as everywhere it appears.
  const suffix = ' (simulated)';
  const name = plain(supplier.name, 75 - suffix.length);
  return { text: { ...name, text: `${name.text}${suffix}` }, value: supplier.code.slice(0, 75) };
}

/** A connected supplier's option: its name as the workspace connected it (a real company: no suffix). */
function connectedOption(supplier: InvitableSupplier): PlainTextOption {
  return {
    text: plain(supplier.name, 75),
    value: supplier.code.slice(0, 75),
    description: plain('Answers in person in its Slack Connect channel', 75),
  };
}

/**
 * Checkboxes of the other connected suppliers (at most 10 fit), all ticked: each is asked to quote the lines in its own
 * channel, and what Alex writes to it goes out as the buyer's Send (or the auto-send setting) allows.
 */
function connectedInput(suppliers: readonly InvitableSupplier[]): InputBlock[] {
  const options = suppliers.slice(0, 10).map(connectedOption);
  if (options.length === 0) return [];
  return [
    {
      type: 'input',
      block_id: BLOCK.startConnected,
      optional: true,
      label: label('Also ask these connected suppliers to quote', 2000),
      hint: label(
        'Real suppliers connected in Slack Connect. Each gets the lines to quote in its own channel; no supplier ' +
          'sees another one, its prices or your mandate. Untick one to leave it out.',
        2000,
      ),
      element: { type: 'checkboxes', action_id: ACTION.startConnected, options, initial_options: options },
    },
  ];
}

function amountInput(blockId: string, actionId: string, text: string, hint: string): InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: label(text, 2000),
    hint: label(hint, 2000),
    element: { type: 'number_input', action_id: actionId, is_decimal_allowed: true, min_value: '0.01' },
  };
}

/** A connected supplier's time to answer each message, in business days: past it the round goes on without it. */
export const SUPPLIER_REPLY_DAYS = { min: 1, max: 20, default: 2 } as const;

function replyDaysInput(): InputBlock[] {
  return [
    {
      type: 'input',
      block_id: BLOCK.startReplyDays,
      label: label('Business days a connected supplier has to answer', 2000),
      hint: label(
        'Each message sent to a supplier in its Slack Connect channel says when to answer by; the supplier is ' +
          'reminded a day before, and the round then goes on without it. You can close a round early or extend it.',
        2000,
      ),
      element: {
        type: 'number_input',
        action_id: ACTION.startReplyDays,
        is_decimal_allowed: false,
        min_value: String(SUPPLIER_REPLY_DAYS.min),
        max_value: String(SUPPLIER_REPLY_DAYS.max),
        initial_value: String(SUPPLIER_REPLY_DAYS.default),
      },
    },
  ];
}

/**
 * Checkboxes of the simulated suppliers (at most 10 fit; none when there is none to invite): all ticked in a workspace
 * that negotiates with simulators only, none where real suppliers are connected and they are market references.
 */
function inviteInput(suppliers: readonly InvitableSupplier[], asReferences: boolean): InputBlock[] {
  const options = suppliers.slice(0, 10).map(supplierOption);
  if (options.length === 0) return [];
  const hint = asReferences
    ? 'Simulated market references, not real companies: tick one to have Alex negotiate with it as a comparison.'
    : 'The quoting supplier always takes part. Untick a supplier to leave it out of the talks.';
  return [
    {
      type: 'input',
      block_id: BLOCK.startInvited,
      optional: true,
      label: label(asReferences ? 'Market references (simulated)' : 'Simulated suppliers to invite', 2000),
      hint: label(hint, 2000),
      element: {
        type: 'checkboxes',
        action_id: ACTION.startInvited,
        options,
        ...(asReferences ? {} : { initial_options: options }),
      },
    },
  ];
}

export function buildStartModal(model: StartModalModel): ModalView {
  const defaultMode = START_MODES.includes(model.defaults.mode) ? model.defaults.mode : 'balanced';
  const rounds = Array.from({ length: ROUNDS.max - ROUNDS.min + 1 }, (_, i) => ROUNDS.min + i);
  const defaultRounds = rounds.includes(model.defaults.rounds) ? model.defaults.rounds : ROUNDS.default;
  const budget = Number.isInteger(model.defaults.questionBudget)
    ? Math.min(Math.max(model.defaults.questionBudget, 0), QUESTION_BUDGET_MAX)
    : QUESTION_BUDGET_DEFAULT;
  const cur = inline(model.currency, 10);

  const blocks: KnownBlock[] = [
    section(
      `:page_facing_up: *${inline(model.fileName, 100)}*` +
        (model.supplierName ? ` from *${inline(model.supplierName, 80)}*` : '') +
        `\n${quantity(model.lineCount)} lines · quoted ${money(model.quotedTotal, model.currency)}`,
    ),
    context([
      model.quotingSupplierChannel
        ? `:link: ${model.supplierName ? inline(model.supplierName, 80) : 'The supplier'} answers in person in ` +
          `${channelMention(model.quotingSupplierChannel)}: Alex's messages reach it as your workspace's settings allow — by your *Send*, or within the mandate if auto-send is on.`
        : `:robot_face: ${model.supplierName ? inline(model.supplierName, 80) : 'The supplier'} is not connected in ` +
          'Slack Connect: an agent plays its side, and its offers are marked (simulated). To negotiate with its own ' +
          'people, an approver connects it first (`/parley suppliers`).',
    ]),
    {
      type: 'input',
      block_id: BLOCK.startMode,
      label: label('What matters most', 2000),
      element: {
        type: 'static_select',
        action_id: ACTION.startMode,
        options: START_MODES.map(modeOption),
        initial_option: modeOption(defaultMode),
      },
    },
    {
      type: 'input',
      block_id: BLOCK.startRounds,
      label: label('Rounds', 2000),
      hint: label('Each round: every supplier makes an offer and hears back.', 2000),
      element: {
        type: 'static_select',
        action_id: ACTION.startRounds,
        options: rounds.map(roundOption),
        initial_option: roundOption(defaultRounds),
      },
    },
    {
      type: 'input',
      block_id: BLOCK.startQuestionBudget,
      label: label('Questions Parley may ask you', 2000),
      hint: label(`0 to ${QUESTION_BUDGET_MAX}: clarification questions the agents may ask you in the thread.`, 2000),
      element: {
        type: 'number_input',
        action_id: ACTION.startQuestionBudget,
        is_decimal_allowed: false,
        min_value: '0',
        max_value: String(QUESTION_BUDGET_MAX),
        initial_value: String(budget),
      },
    },
    amountInput(
      BLOCK.startTargetTotal,
      ACTION.startTargetTotal,
      `Target total (${cur || 'order currency'})`,
      'The order total you hope for. Optional.',
    ),
    amountInput(
      BLOCK.startWalkAwayTotal,
      ACTION.startWalkAwayTotal,
      `Walk-away total (${cur || 'order currency'})`,
      'The most you would pay for the whole order. Optional; at least the target.',
    ),
    {
      type: 'input',
      block_id: BLOCK.startRequiredBy,
      optional: true,
      label: label('Needed by', 2000),
      hint: label('Suppliers that cannot deliver by this date cannot be awarded. Optional.', 2000),
      element: { type: 'datepicker', action_id: ACTION.startRequiredBy, placeholder: plain('No deadline', 150) },
    },
    {
      type: 'input',
      block_id: BLOCK.startMaxLeadTime,
      optional: true,
      label: label('Or: longest lead time (days)', 2000),
      hint: label('Instead of a date: suppliers slower than this cannot be awarded. Optional.', 2000),
      element: {
        type: 'number_input',
        action_id: ACTION.startMaxLeadTime,
        is_decimal_allowed: false,
        min_value: '1',
        max_value: String(MAX_LEAD_TIME_DAYS),
      },
    },
    {
      type: 'input',
      block_id: BLOCK.startSourcing,
      label: label('Suppliers for the order', 2000),
      element: {
        type: 'radio_buttons',
        action_id: ACTION.startSourcing,
        options: SOURCING_PREFERENCES.map(sourcingOption),
        initial_option: sourcingOption('any'),
      },
    },
    ...(model.hasConnectedSuppliers === true ? replyDaysInput() : []),
    ...connectedInput(model.connectedSuppliers ?? []),
    ...inviteInput(model.simulatedSuppliers, model.hasConnectedSuppliers === true),
    ...(model.externalChannel === true ? externalConfirmInput() : []),
    {
      type: 'input',
      block_id: BLOCK.startNotes,
      optional: true,
      label: label('Notes for the negotiators', 2000),
      hint: label("Context for Parley's negotiators. Optional.", 2000),
      element: {
        type: 'plain_text_input',
        action_id: ACTION.startNotes,
        multiline: true,
        max_length: NOTES_MAX,
        placeholder: plain('e.g. delivery before 1 September matters more than the last 2%', 150),
      },
    },
    context(['Nothing is bought without a person approving the purchase order.']),
  ];

  return {
    type: 'modal',
    callback_id: CALLBACK.startModal,
    private_metadata: quotationRefCodec.encode({ qt: model.quotationId }),
    title: label('Start negotiation', 24),
    submit: label('Start', 24),
    close: label('Cancel', 24),
    blocks,
  };
}

/**
 * The start modal's answers, or field errors keyed by block id. `stateValues` is `view.state.values`; `now` dates the
 * check that a delivery date is still ahead (UTC days).
 */
export function parseStartModal(stateValues: unknown, now: Date = new Date()): ParseResult<StartOptions> {
  const state = new ModalState(stateValues);
  const errors: Record<string, string> = {};

  const modeRaw = state.selected(BLOCK.startMode, ACTION.startMode);
  const mode = START_MODES.find((m) => m === modeRaw);
  if (!mode) errors[BLOCK.startMode] = 'Choose what matters most.';

  const rounds = parseWhole(state.selected(BLOCK.startRounds, ACTION.startRounds), ROUNDS.min, ROUNDS.max);
  if (!rounds.ok) errors[BLOCK.startRounds] = rounds.error;
  else if (rounds.value === null) errors[BLOCK.startRounds] = 'Choose the number of rounds.';

  const budgetRaw = state.text(BLOCK.startQuestionBudget, ACTION.startQuestionBudget);
  const budget = parseWhole(budgetRaw, 0, QUESTION_BUDGET_MAX);
  if (!budget.ok) errors[BLOCK.startQuestionBudget] = budget.error;

  const target = parseAmount(state.text(BLOCK.startTargetTotal, ACTION.startTargetTotal));
  if (!target.ok) errors[BLOCK.startTargetTotal] = target.error;
  const walkAway = parseAmount(state.text(BLOCK.startWalkAwayTotal, ACTION.startWalkAwayTotal));
  if (!walkAway.ok) errors[BLOCK.startWalkAwayTotal] = walkAway.error;
  if (target.ok && walkAway.ok && target.value !== null && walkAway.value !== null && walkAway.value < target.value) {
    errors[BLOCK.startWalkAwayTotal] = 'The walk-away total must be at least the target total.';
  }

  const requiredBy = state.date(BLOCK.startRequiredBy, ACTION.startRequiredBy);
  if (requiredBy !== null && !isFutureDate(requiredBy, now)) {
    errors[BLOCK.startRequiredBy] = 'Pick a date after today.';
  }
  const maxLeadTime = parseWhole(state.text(BLOCK.startMaxLeadTime, ACTION.startMaxLeadTime), 1, MAX_LEAD_TIME_DAYS);
  if (!maxLeadTime.ok) errors[BLOCK.startMaxLeadTime] = maxLeadTime.error;
  else if (maxLeadTime.value !== null && requiredBy !== null) {
    errors[BLOCK.startMaxLeadTime] = 'Give a delivery date or a longest lead time, not both.';
  }

  const sourcingRaw = state.selected(BLOCK.startSourcing, ACTION.startSourcing);
  // An older modal without the choice means no preference.
  const sourcing = sourcingRaw === null ? 'any' : SOURCING_PREFERENCES.find((s) => s === sourcingRaw);
  if (!sourcing) errors[BLOCK.startSourcing] = 'Choose one supplier, a split, or the best award.';
  // The simulated ones' checkboxes absent (an older modal, or none to invite): every simulated supplier is invited;
  // present with nothing ticked: none. The connected ones are invited only as ticked (their checkboxes come only with
  // the simulated ones', as market references).
  const simulatedInvited = state.has(BLOCK.startInvited, ACTION.startInvited)
    ? state.checked(BLOCK.startInvited, ACTION.startInvited)
    : null;
  const connectedInvited = state.has(BLOCK.startConnected, ACTION.startConnected)
    ? state.checked(BLOCK.startConnected, ACTION.startConnected)
    : [];
  const invitedSuppliers =
    simulatedInvited === null && connectedInvited.length === 0
      ? null
      : [...(simulatedInvited ?? []), ...connectedInvited];

  // Only a modal that asked (one where suppliers are connected) carries it.
  const replyDays = state.has(BLOCK.startReplyDays, ACTION.startReplyDays)
    ? parseWhole(
        state.text(BLOCK.startReplyDays, ACTION.startReplyDays),
        SUPPLIER_REPLY_DAYS.min,
        SUPPLIER_REPLY_DAYS.max,
      )
    : null;
  if (replyDays && !replyDays.ok) errors[BLOCK.startReplyDays] = replyDays.error;

  const notes = state.text(BLOCK.startNotes, ACTION.startNotes);
  if (notes !== null && notes.length > NOTES_MAX) {
    errors[BLOCK.startNotes] = `Keep the notes under ${NOTES_MAX} characters.`;
  }

  if (Object.keys(errors).length > 0 || !mode || !rounds.ok || rounds.value === null || !budget.ok) {
    return { ok: false, errors };
  }
  if (!target.ok || !walkAway.ok || !maxLeadTime.ok || !sourcing) return { ok: false, errors };
  return {
    ok: true,
    value: {
      mode,
      maxRounds: rounds.value,
      questionBudget: budget.value ?? QUESTION_BUDGET_DEFAULT,
      targetTotal: target.value,
      walkAwayTotal: walkAway.value,
      requiredBy,
      maxLeadTimeDays: maxLeadTime.value,
      sourcing,
      invitedSuppliers,
      notes,
      ...(replyDays?.ok ? { supplierReplyDays: replyDays.value ?? SUPPLIER_REPLY_DAYS.default } : {}),
      // Only a modal that asked (a shared channel's) carries the answer.
      ...(state.has(BLOCK.startExternalConfirm, ACTION.startExternalConfirm)
        ? {
            externalChannelConfirmed: state
              .checked(BLOCK.startExternalConfirm, ACTION.startExternalConfirm)
              .includes(EXTERNAL_CONFIRM_VALUE),
          }
        : {}),
    },
  };
}

/** A YYYY-MM-DD date after `now`'s UTC day (and a real date: 2026-02-30 is not one). */
function isFutureDate(date: string, now: Date): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = Date.UTC(year, month - 1, day);
  const parsed = new Date(at);
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day)
    return false;
  return at > Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}
