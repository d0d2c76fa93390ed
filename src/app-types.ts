// What the Slack layer asks of Parley, in words both sides share: the arguments of each call a listener makes (what a
// Slack payload carries — team, user, channel, ids decoded from button values). The services take these shapes; the
// listeners build them; neither imports the other (src/slack/deps.ts declares the calls, src/server.ts plugs them in).
import type { PresetMode } from './config/business-rules.js';
import type { SourcingPreference } from './negotiation/mandate.js';

/** A file shared in a channel (event), or pointed at (shortcut, `/parley negotiate`: `explicit`). */
export interface FileSharedInput {
  teamId: string;
  fileId: string;
  channelId: string;
  userId: string;
  /** The message to thread on when the payload names it; otherwise the file's share in the channel. */
  threadTs: string | null;
  /** Someone asked for this file: read it whatever its type (a PDF gets a clear answer about what to upload). */
  explicit: boolean;
}

/** `/parley negotiate` in a thread: the files of the thread's first message. */
export interface FilesOfMessageInput {
  channelId: string;
  messageTs: string;
  userId: string;
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

/** Link the quotation to a supplier Parley knows, or create one from the name as read. */
export type SupplierChoice = { kind: 'existing'; supplierId: string } | { kind: 'new' };

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

/** A message in a thread (not its first): it may answer the thread's open question. */
export interface ThreadReplyInput {
  channelId: string;
  threadTs: string;
  text: string;
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
