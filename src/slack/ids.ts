// Every action_id, callback_id and block_id Parley uses, and the codecs for what buttons, options and modals carry.
// Values are small opaque ids (the state lives in the database), encoded as compact JSON and decoded with zod: a
// value Slack sends back that does not parse is treated as a stale or forged click, never trusted.
import { z } from 'zod';

/** `action_id`s. Unique within their block; the value (or the block) tells which item a click is about. */
export const ACTION = {
  // Review of unsure catalog matches
  reviewSelectCandidate: 'review_select_candidate',
  reviewConfirm: 'review_confirm',
  reviewNotInCatalog: 'review_not_in_catalog',
  reviewConfirmAll: 'review_confirm_all',
  /** Every line of the quotation as an XLSX to fix in Excel and share back (the review workbook). */
  reviewDownloadLines: 'review_download_lines',
  reviewPagePrev: 'review_page_prev',
  reviewPageNext: 'review_page_next',
  reviewPageJump: 'review_page_jump',
  reviewSupplierUseExisting: 'review_supplier_use_existing',
  reviewSupplierCreate: 'review_supplier_create',
  /** One supplier's column of a comparison sheet: read the file as that supplier's quotation. */
  comparisonPickColumn: 'comparison_pick_column',
  reviewStartNegotiation: 'review_start_negotiation',
  /** Under a finished review whose supplier is not connected: the suppliers modal, that supplier picked. */
  reviewConnectSupplier: 'review_connect_supplier',
  // Questions in the thread
  questionAnswer: 'question_answer',
  earlyTerminationFinish: 'early_termination_finish',
  earlyTerminationContinue: 'early_termination_continue',
  /** Which open question a thread reply answers (`which_question:<n>`), or none of them. */
  whichQuestion: 'which_question',
  whichQuestionNone: 'which_question_none',
  // Curveball
  curveballChoose: 'curveball_choose',
  // Decision and PO
  decisionOpenPo: 'decision_open_po',
  /** The buyer accepts a premium above the quote (the recommendation's or the no-award message's button). */
  decisionAcceptPremium: 'decision_accept_premium',
  /** 👍 / 👎 on the recommendation (a feedback_buttons element; the value says which side). */
  decisionFeedback: 'decision_feedback',
  poReject: 'po_reject',
  /** `/parley negotiate` without a link: one button per recent spreadsheet of the channel. */
  negotiateFile: 'negotiate_file',
  // Links (url buttons still send an action, which the app must ack)
  openThread: 'open_thread',
  // Inputs inside modals (read from view.state.values[block][action])
  startMode: 'start_mode',
  startRounds: 'start_rounds',
  startQuestionBudget: 'start_question_budget',
  startTargetTotal: 'start_target_total',
  startWalkAwayTotal: 'start_walk_away_total',
  startRequiredBy: 'start_required_by',
  startMaxLeadTime: 'start_max_lead_time',
  startSourcing: 'start_sourcing',
  startInvited: 'start_invited',
  /** The other suppliers connected in Slack Connect, invited beside the quoting one. */
  startConnected: 'start_connected',
  startNotes: 'start_notes',
  startReplyDays: 'start_reply_days',
  /** The buyer's "post it here" for a channel with people from outside the workspace (Slack Connect). */
  startExternalConfirm: 'start_external_confirm',
  rejectReason: 'reject_reason',
  settingsBrandName: 'settings_brand_name',
  settingsApprovers: 'settings_approvers',
  settingsDualApproval: 'settings_dual_approval',
  settingsDefaultMode: 'settings_default_mode',
  settingsDefaultRounds: 'settings_default_rounds',
  settingsDefaultQuestionBudget: 'settings_default_question_budget',
  settingsDiscloseCompetitors: 'settings_disclose_competitors',
  settingsAutoSend: 'settings_auto_send',
  // The brand's catalog (`/parley catalog`, the App Home): the upload modal's file, the preview's buttons
  catalogOpen: 'catalog_open',
  catalogFile: 'catalog_file',
  catalogMerge: 'catalog_merge',
  catalogReplace: 'catalog_replace',
  catalogCancel: 'catalog_cancel',
  // Suppliers in Slack Connect (`/parley suppliers`): the connect modal's inputs
  /** The App Home's Suppliers button: the same modal as `/parley suppliers`. */
  suppliersOpen: 'suppliers_open',
  supplierPick: 'supplier_pick',
  supplierNewName: 'supplier_new_name',
  supplierChannel: 'supplier_channel',
  // A message Alex drafted for a connected supplier, in the buyer's thread: sent as written, or not at all
  draftSend: 'draft_send',
  draftSkip: 'draft_skip',
  /** Opens the draft in a modal to edit before sending; its text input. */
  draftEdit: 'draft_edit',
  draftText: 'draft_text',
  /** On a sent draft: more time for the supplier, or the round closed without its answer now. */
  draftExtend: 'draft_extend',
  draftCloseRound: 'draft_close_round',
  /** In the supplier's own channel: opens its Submit offer modal. */
  offerOpen: 'offer_open',
  /** Under the offer Parley read from a supplier's revised quotation: its people confirm it. */
  offerFileSubmit: 'offer_file_submit',
  /** Under the offer Claude read in a supplier's words: its people confirm it. */
  wordsOfferSubmit: 'words_offer_submit',
  // The supplier's Submit offer modal: a price per line (one action id, the block names the line) and its terms
  offerPrice: 'offer_price',
  offerLeadTime: 'offer_lead_time',
  offerPaymentTerms: 'offer_payment_terms',
  offerValidity: 'offer_validity',
  offerNotes: 'offer_notes',
  // The approved PO in a connected supplier's own channel: its Accept, and Query (a modal with the question)
  poSupplierAccept: 'po_supplier_accept',
  poSupplierQuery: 'po_supplier_query',
  poQueryText: 'po_query_text',
} as const;
export type ActionId = (typeof ACTION)[keyof typeof ACTION];

/**
 * Buttons of one kind that share an actions block (suggested answers, curveball strategies) need distinct action ids:
 * `question_answer:0`, `question_answer:1`, … A listener registers the pattern; the value says what was clicked.
 */
export function indexedActionId(base: ActionId, index: number): string {
  return `${base}:${index}`;
}

export function actionIdPattern(base: ActionId): RegExp {
  return new RegExp(`^${base}(:\\d+)?$`);
}

/** Modal `callback_id`s, the message shortcut's and the slash command. */
export const CALLBACK = {
  startModal: 'parley_start_negotiation',
  poModal: 'parley_purchase_order',
  rejectModal: 'parley_reject_po',
  settingsModal: 'parley_settings',
  /** The catalog upload modal; its preview replaces it (same view) and is read by its buttons, not submitted. */
  catalogModal: 'parley_catalog',
  /** `/parley suppliers`: the connected suppliers, and a supplier connected to a Slack Connect channel on submit. */
  suppliersModal: 'parley_suppliers',
  /** A supplier's offer, submitted from its negotiation thread in its own channel. */
  offerModal: 'parley_supplier_offer',
  /** A draft for a connected supplier, edited by the buyer and sent as they wrote it. */
  draftEditModal: 'parley_draft_edit',
  /** A supplier's question on the approved PO, submitted from its own channel. */
  poQueryModal: 'parley_supplier_po_query',
  /** Must match manifest.yml. */
  negotiateShortcut: 'negotiate_quote',
} as const;
export const SLASH_COMMAND = '/parley';

/**
 * `block_id`s. Fixed ones for modal inputs (errors are keyed by them); per-item ones are built by the functions below
 * so they stay unique within a message.
 */
export const BLOCK = {
  // A modal input's block is named like its element, so field errors and state read back by one name.
  startMode: ACTION.startMode,
  startRounds: ACTION.startRounds,
  startQuestionBudget: ACTION.startQuestionBudget,
  startTargetTotal: ACTION.startTargetTotal,
  startWalkAwayTotal: ACTION.startWalkAwayTotal,
  startRequiredBy: ACTION.startRequiredBy,
  startMaxLeadTime: ACTION.startMaxLeadTime,
  startSourcing: ACTION.startSourcing,
  startInvited: ACTION.startInvited,
  startConnected: ACTION.startConnected,
  startNotes: ACTION.startNotes,
  startReplyDays: ACTION.startReplyDays,
  startExternalConfirm: ACTION.startExternalConfirm,
  rejectReason: ACTION.rejectReason,
  poQueryText: ACTION.poQueryText,
  draftText: ACTION.draftText,
  settingsBrandName: ACTION.settingsBrandName,
  settingsApprovers: ACTION.settingsApprovers,
  settingsDualApproval: ACTION.settingsDualApproval,
  settingsDefaultMode: ACTION.settingsDefaultMode,
  settingsDefaultRounds: ACTION.settingsDefaultRounds,
  settingsDefaultQuestionBudget: ACTION.settingsDefaultQuestionBudget,
  settingsDiscloseCompetitors: ACTION.settingsDiscloseCompetitors,
  settingsAutoSend: ACTION.settingsAutoSend,
  catalogFile: ACTION.catalogFile,
  supplierPick: ACTION.supplierPick,
  supplierNewName: ACTION.supplierNewName,
  supplierChannel: ACTION.supplierChannel,
  /** The prefix of each line's price input (`offer_price:0`, `offer_price:1`…: offerPriceBlockId). */
  offerPrice: ACTION.offerPrice,
  offerLeadTime: ACTION.offerLeadTime,
  offerPaymentTerms: ACTION.offerPaymentTerms,
  offerValidity: ACTION.offerValidity,
  offerNotes: ACTION.offerNotes,
  /** The Submit this offer under an offer read from a supplier's revised quotation. */
  offerFile: 'offer_file',
  catalogActions: 'catalog_actions',
  /** The warning over the catalog preview when a click on it did not go through. */
  catalogClickFailed: 'catalog_click_failed',
  /** The App Home's Import catalog button. */
  catalogHome: 'catalog_home',
  reviewConfirmAll: 'review_confirm_all',
  reviewWorkbook: 'review_workbook',
  reviewPager: 'review_pager',
  reviewSupplier: 'review_supplier',
  comparisonColumns: 'comparison_columns',
  reviewStart: 'review_start',
  questionAnswers: 'question_answers',
  earlyTermination: 'early_termination',
  whichQuestion: 'which_question',
  curveballStrategies: 'curveball_strategies',
  decisionActions: 'decision_actions',
  decisionFeedback: 'decision_feedback',
  decisionPremium: 'decision_premium',
  /** The no-award message's first section: how a reader (or the demo) tells it from other messages. */
  decisionNoAward: 'decision_no_award',
  poActions: 'po_actions',
} as const;

const REVIEW_LINE_PREFIX = 'review_line:';
const REVIEW_PAGE_JUMP_PREFIX = 'review_page_jump:';

function idFromBlockId(prefix: string, blockId: string): string | null {
  if (!blockId.startsWith(prefix)) return null;
  const id = blockId.slice(prefix.length);
  return idSchema.safeParse(id).success ? id : null;
}

/** The actions block of one review line: its select and its buttons; the listener reads the select's state here. */
export function reviewLineBlockId(itemId: string): string {
  return `${REVIEW_LINE_PREFIX}${itemId}`;
}

export function itemIdFromReviewLineBlockId(blockId: string): string | null {
  return idFromBlockId(REVIEW_LINE_PREFIX, blockId);
}

/** The page-number input of a review message: an input's action carries no value of ours, so the block names it. */
export function reviewPageJumpBlockId(quotationId: string): string {
  return `${REVIEW_PAGE_JUMP_PREFIX}${quotationId}`;
}

export function quotationIdFromPageJumpBlockId(blockId: string): string | null {
  return idFromBlockId(REVIEW_PAGE_JUMP_PREFIX, blockId);
}

// ───────────────────────────── Value codecs ─────────────────────────────

/** Database ids (cuids) and other short tokens: nothing that could carry markup or grow large. */
export const idSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/);

/** Option values: 150 chars per Slack's current docs, 75 in older type docs; Parley stays within 75. */
export const OPTION_VALUE_MAX = 75;
export const BUTTON_VALUE_MAX = 2000;
export const PRIVATE_METADATA_MAX = 3000;

export interface ValueCodec<T> {
  /** Compact JSON; throws when the result would exceed the codec's limit (a programming error, not user input). */
  encode(value: T): string;
  /** The value, or null when `raw` is missing, not JSON or not the expected shape. */
  decode(raw: string | null | undefined): T | null;
  readonly maxLength: number;
}

export function valueCodec<S extends z.ZodType>(schema: S, maxLength: number): ValueCodec<z.infer<S>> {
  return {
    maxLength,
    encode(value) {
      const parsed = schema.parse(value);
      const text = JSON.stringify(parsed);
      if (text.length > maxLength) throw new RangeError(`encoded value is ${text.length} chars, limit ${maxLength}`);
      return text;
    },
    decode(raw) {
      if (typeof raw !== 'string' || raw.length === 0 || raw.length > maxLength) return null;
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return null;
      }
      const result = schema.safeParse(json);
      return result.success ? result.data : null;
    },
  };
}

const pageSchema = z.number().int().min(1).max(10_000);

/** A quotation: the Start negotiation… button and the start modal's private_metadata. */
export const quotationRefCodec = valueCodec(z.strictObject({ qt: idSchema }), BUTTON_VALUE_MAX);
/** A review page: Prev / Next buttons and the page input's block (the quotation and the page to show). */
export const reviewPageCodec = valueCodec(z.strictObject({ qt: idSchema, pg: pageSchema }), BUTTON_VALUE_MAX);
/** Confirm on one line: the item and the suggested product (confirmed unless the select says otherwise). */
export const reviewConfirmCodec = valueCodec(z.strictObject({ i: idSchema, p: idSchema.nullable() }), BUTTON_VALUE_MAX);
/** Not in catalog on one line. */
export const reviewItemCodec = valueCodec(z.strictObject({ i: idSchema }), BUTTON_VALUE_MAX);
/** One candidate option in a line's select: the product (the select's block names the item). */
export const candidateOptionCodec = valueCodec(z.strictObject({ p: idSchema }), OPTION_VALUE_MAX);
/** Confirm all suggestions of a quotation. */
export const confirmAllCodec = quotationRefCodec;
export const downloadLinesCodec = quotationRefCodec;
/** Use an existing supplier (`s`) or create a new one from the name as read (`s` absent). */
export const supplierChoiceCodec = valueCodec(
  z.strictObject({ qt: idSchema, s: idSchema.optional() }),
  BUTTON_VALUE_MAX,
);
/** A comparison sheet's supplier column to negotiate: the quotation and the column's index in its offer. */
export const comparisonColumnCodec = valueCodec(
  z.strictObject({ qt: idSchema, c: z.number().int().min(0).max(999) }),
  BUTTON_VALUE_MAX,
);
/** A suggested answer to an open question: the question and the answer's index. */
export const answerCodec = valueCodec(
  z.strictObject({ q: idSchema, a: z.number().int().min(0).max(9) }),
  BUTTON_VALUE_MAX,
);
/** Finish now / Keep negotiating on an early-termination question. */
export const questionRefCodec = valueCodec(z.strictObject({ q: idSchema }), BUTTON_VALUE_MAX);
/** A thread reply (`r`) and the open question it answers (`q`), or null for none of them. */
export const whichQuestionCodec = valueCodec(z.strictObject({ r: idSchema, q: idSchema.nullable() }), BUTTON_VALUE_MAX);
/** One curveball strategy of a negotiation. */
export const curveballChoiceCodec = valueCodec(z.strictObject({ n: idSchema, s: idSchema }), BUTTON_VALUE_MAX);
/** A draft for a connected supplier: the negotiation and the message's sequence in it. */
export const draftRefCodec = valueCodec(
  z.strictObject({ n: idSchema, q: z.number().int().min(1).max(100_000) }),
  BUTTON_VALUE_MAX,
);

/** A premium the buyer may accept: the negotiation and the offer's id (decide.ts PremiumOption.id). */
export const premiumChoiceCodec = valueCodec(z.strictObject({ n: idSchema, p: idSchema }), BUTTON_VALUE_MAX);
/** A rating of a negotiation's recommendation: the negotiation and the side clicked. */
export const feedbackCodec = valueCodec(
  z.strictObject({ n: idSchema, r: z.enum(['positive', 'negative']) }),
  BUTTON_VALUE_MAX,
);
/** An approved PO's part for one connected supplier (its allocation): its Accept and Query, and the query modal. */
export const supplierPoRefCodec = valueCodec(z.strictObject({ po: idSchema, s: idSchema }), BUTTON_VALUE_MAX);
/** A purchase order: the decision's Review & approve button (the modal loads the PO as it is when clicked). */
export const poIdCodec = valueCodec(z.strictObject({ po: idSchema }), BUTTON_VALUE_MAX);
/**
 * A purchase order at the version the person saw: the Review & approve button, the PO modal, Reject… and the reject
 * modal. The version makes a stale modal's Approve a conflict instead of approving something that changed.
 */
export const poRefCodec = valueCodec(
  z.strictObject({ po: idSchema, v: z.number().int().nonnegative() }),
  PRIVATE_METADATA_MAX,
);
/** The settings modal's private_metadata: the settings version it shows, so a save over a newer one is refused. */
export const settingsVersionCodec = valueCodec(
  z.strictObject({ sv: z.number().int().nonnegative() }),
  PRIVATE_METADATA_MAX,
);
/** A catalog import previewed: the preview's Merge, Replace and Cancel buttons. */
export const catalogImportCodec = valueCodec(z.strictObject({ ci: idSchema }), BUTTON_VALUE_MAX);
/** A Slack file offered by `/parley negotiate` (F… ids fit `idSchema`). */
export const fileRefCodec = valueCodec(z.strictObject({ f: idSchema }), BUTTON_VALUE_MAX);

/** A supplier's words in its thread (their ThreadReply row), and the offer Parley read in them. */
export const threadReplyRefCodec = valueCodec(z.strictObject({ tr: idSchema }), BUTTON_VALUE_MAX);
