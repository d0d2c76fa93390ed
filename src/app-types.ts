// What the Slack layer asks of Parley, in words both sides share: the arguments of each call a listener makes (what a
// Slack payload carries — team, user, channel, ids decoded from button values). The services take these shapes; the
// listeners build them; neither imports the other (src/slack/deps.ts declares the calls, src/server.ts plugs them in).
import type { CatalogChangeCounts, CatalogRowProblem } from './catalog/catalog-file.js';
import type { PresetMode } from './config/business-rules.js';
import type { SourcingPreference } from './negotiation/mandate.js';

/** Who asked Parley to read a file (the shortcut, `/parley negotiate`, a button): its uploader or an approver. */
export interface FileRequester {
  userId: string;
  /** Their team, where the payload says (an interaction's `user.team_id`): people of another organisation may not. */
  teamId: string | null;
}

/** A file shared in a channel (event), or pointed at (shortcut, `/parley negotiate`: `requestedBy`). */
export interface FileSharedInput {
  teamId: string;
  fileId: string;
  channelId: string;
  /** Who shared the file (the message's author), when the payload says; null: the file's owner per files.info. */
  userId: string | null;
  /** Their team, when the payload says (a message's `user_team` in Slack Connect); null: files.info's `user_team`. */
  userTeamId: string | null;
  /** The thread to work in (a reply's `thread_ts`, else the file message's ts); null: the file's share in Slack. */
  threadTs: string | null;
  /** The file's own message (a reply when shared inside a thread), for the 👀; null: the file's share in Slack. */
  messageTs: string | null;
  /** Null for a share Slack reported; someone asking reads the file whatever its type (a PDF gets a clear answer). */
  requestedBy: FileRequester | null;
}

/** A spreadsheet shared in a channel lately, offered by `/parley negotiate` to be read. */
export interface RecentChannelFile {
  fileId: string;
  name: string;
  sharedBy: string;
  /** The thread it is read in, when Parley has read it already. */
  readInThread: string | null;
}

/** Confirm a line's product (the suggested one, or the candidate picked in its select), or say it is not ours. */
export type ItemDecision = { kind: 'confirm'; productId: string | null } | { kind: 'not_in_catalog' };

export interface ReviewItemInput {
  itemId: string;
  by: string;
  decision: ItemDecision;
  /** The review page the clicked message shows, re-rendered after the change. */
  page: number;
}

export interface ConfirmAllInput {
  quotationId: string;
  by: string;
  page: number;
}

export interface DownloadReviewLinesInput {
  quotationId: string;
  by: string;
}

/** Link the quotation to a supplier Parley knows, or create one from the name as read. */
export type SupplierChoice = { kind: 'existing'; supplierId: string } | { kind: 'new' };

export interface ChooseComparisonColumnInput {
  quotationId: string;
  by: string;
  /** Index among the supplier columns the comparison offered. */
  column: number;
}

export interface ChooseSupplierInput {
  quotationId: string;
  by: string;
  choice: SupplierChoice;
  page: number;
}

export interface ShowReviewPageInput {
  quotationId: string;
  by: string;
  page: number;
}

/** How to negotiate, as the start modal asks it. */
export interface NegotiationRequest {
  mode: PresetMode;
  maxRounds: number;
  questionBudget: number;
  targetTotal: number | null;
  walkAwayTotal: number | null;
  /** The date the goods are needed by (YYYY-MM-DD): suppliers that cannot deliver by then cannot be awarded. */
  requiredBy: string | null;
  /** Or the longest lead time the buyer accepts, in days (one of the two at most). */
  maxLeadTimeDays: number | null;
  sourcing: SourcingPreference;
  /** The simulated suppliers invited (the quoting supplier always is); null invites every one. */
  invitedSuppliers: string[] | null;
  notes: string | null;
  /**
   * The buyer ticked "post it here" for a channel with people from outside the workspace (Slack Connect): the thread
   * shows other suppliers, scores and the mandate. Asked only for such a channel; absent means not confirmed.
   */
  externalChannelConfirmed?: boolean;
  /** Business days a connected supplier has to answer each message; asked only where suppliers are connected. */
  supplierReplyDays?: number;
}

export interface BeginNegotiationInput {
  quotationId: string;
  by: string;
  request: NegotiationRequest;
}

/** A click on a question's message: a suggested answer by its index, or Finish now / Keep negotiating. */
export type QuestionChoice = { kind: 'suggested'; index: number } | { kind: 'early_termination'; finish: boolean };

export interface AnswerQuestionInput {
  questionId: string;
  by: string;
  choice: QuestionChoice;
}

export interface ChooseCurveballInput {
  negotiationId: string;
  strategyId: string;
  by: string;
}

/** The buyer accepts a premium above the quote: the offer's id as the button carried it (decide.ts PremiumOption). */
export interface AcceptPremiumInput {
  negotiationId: string;
  optionId: string;
  by: string;
}

/** A 👍 / 👎 on a recommendation's feedback buttons. */
export interface RateRecommendationInput {
  negotiationId: string;
  rating: 'positive' | 'negative';
  by: string;
}

/** A message in a thread (not its first): it may answer the thread's open question. */
export interface ThreadReplyInput {
  channelId: string;
  threadTs: string;
  /** The message's own ts: the same on every delivery of its event, so a retried event is taken once. */
  messageTs: string;
  /** Slack's client-side id of the message, when the event carries one (recorded with it). */
  clientMsgId: string | null;
  text: string;
  by: string;
  /** The author's own organisation where the event says (`user_team`, in a shared channel); null: not said. */
  byTeamId: string | null;
}

/** The author of a thread reply picks the open question it answers (`questionId`), or none of them (null). */
export interface AnswerWhichQuestionInput {
  replyId: string;
  questionId: string | null;
  by: string;
}

/** `expectedVersion`: the PO's version the approver saw (in the modal's private_metadata). */
export interface ApprovePoInput {
  purchaseOrderId: string;
  by: string;
  expectedVersion: number;
}

export interface RejectPoInput {
  purchaseOrderId: string;
  by: string;
  reason: string;
  expectedVersion: number;
}

// ───────────────────────────── The brand's catalog (`/parley catalog`) ─────────────────────────────

/** A catalog file uploaded in the catalog modal (its `file_input`), to read, check and preview. */
export interface PreviewCatalogInput {
  by: string;
  fileId: string;
}

/** What a preview shows before anything changes: both choices' counts, the first rows, the problems. */
export interface CatalogPreview {
  importId: string;
  fileName: string;
  /** The worksheet read (XLSX), or null for a CSV. */
  sheet: string | null;
  /** Non-blank data rows in the file, and how many of them can be imported. */
  rowsRead: number;
  importable: number;
  merge: CatalogChangeCounts;
  replace: CatalogChangeCounts;
  /** The first rows as they will be stored (untrusted cells: escape to show). */
  sample: { sku: string; name: string; color: string; size: string; category: string }[];
  problems: CatalogRowProblem[];
  problemCount: number;
  /** Products the workspace's catalog has now (not counting retired ones). */
  catalogSize: number;
}

export type CatalogImportMode = 'merge' | 'replace';

export interface ImportCatalogInput {
  importId: string;
  by: string;
  mode: CatalogImportMode;
}

export interface CancelCatalogImportInput {
  importId: string;
  by: string;
}

/** What an import did. `repeated`: it was already done (a second click), nothing changed now. */
export interface CatalogImportReport {
  importId: string;
  fileName: string;
  mode: CatalogImportMode;
  added: number;
  changed: number;
  removed: number;
  retired: number;
  catalogSize: number;
  repeated: boolean;
}

/** An import claimed by a click: it runs after the acknowledgement; `finished` is null when it failed (logged). */
export interface CatalogImportStarted {
  fileName: string;
  finished: Promise<CatalogImportReport | null>;
}

/** `/parley suppliers` submitted: a supplier of the workspace (by id) or a new one (by name), and its channel. */
export interface ConnectSupplierInput {
  by: string;
  channelId: string;
  supplier: { id: string } | { name: string };
}

/** An offer as a connected supplier's person submitted it (Submit offer): one price per line it was shown, in order. */
export interface SubmittedOffer {
  /** null: the line is not offered. */
  unitPrices: (number | null)[];
  leadTimeDays: number | null;
  paymentTerms: string | null;
  validityDays: number | null;
  notes: string | null;
}

export interface SubmitSupplierOfferInput {
  /** The modal's reference: the negotiation, the supplier's row in it and the round it was opened for. */
  negotiationId: string;
  negotiationSupplierId: string;
  round: number;
  offer: SubmittedOffer;
  /** The person submitting, and their own organisation (`user.team_id`). */
  by: string;
  byTeamId: string | null;
}

/** A person of a connected supplier confirming the offer Parley read from its revised quotation (the file's row). */
export interface SubmitOfferFileInput {
  quotationId: string;
  by: string;
  byTeamId: string | null;
}

/** A person of a connected supplier confirming the offer Claude read in its words (their ThreadReply row). */
export interface SubmitWordsOfferInput {
  threadReplyId: string;
  by: string;
  byTeamId: string | null;
}

/** A person of a connected supplier answering its part of an approved PO, in its own channel (Accept, Query). */
export interface SupplierPoAnswerInput {
  purchaseOrderId: string;
  supplierId: string;
  /** The person, and their own organisation (`user.team_id`). */
  by: string;
  byTeamId: string | null;
}

/** The supplier's question on its part of the PO; `submissionId` (the modal's view id) makes a redelivery ask once. */
export interface SupplierPoQueryInput extends SupplierPoAnswerInput {
  text: string;
  submissionId: string;
}

/** The buyer's Send or Skip on a draft Alex wrote for a connected supplier. */
export interface DecideDraftInput {
  negotiationId: string;
  /** The draft message's sequence in the negotiation. */
  sequence: number;
  /** Send it or skip it; once sent, close its round without the supplier's answer, or give the supplier more time. */
  decision: 'send' | 'skip' | 'close' | 'extend';
  by: string;
  /** Sent by the auto-send setting, within the mandate, for `by` (the buyer who started the negotiation). */
  automatic?: boolean;
  /** Send: the words as the buyer edited them (the Edit modal); they are what the supplier reads and the history holds. */
  text?: string;
}
