// What the listeners get, declared here so the Slack layer depends on this and nothing else of Parley: the calls they
// make (one per user action) and the screens (modals, App Home, command replies) rendered from the database. No
// Prisma, Anthropic or exceljs in the Slack layer; src/server.ts plugs the services in.
import type { ModalView } from '@slack/types';
import type {
  AcceptPremiumInput,
  RateRecommendationInput,
  AnswerQuestionInput,
  CancelCatalogImportInput,
  ConnectSupplierInput,
  CatalogImportStarted,
  CatalogPreview,
  ImportCatalogInput,
  PreviewCatalogInput,
  AnswerWhichQuestionInput,
  ApprovePoInput,
  BeginNegotiationInput,
  ChooseCurveballInput,
  ChooseComparisonColumnInput,
  ChooseSupplierInput,
  ConfirmAllInput,
  DecideDraftInput,
  DownloadReviewLinesInput,
  FileSharedInput,
  RecentChannelFile,
  RejectPoInput,
  ReviewItemInput,
  ShowReviewPageInput,
  SubmitSupplierOfferInput,
  SubmitOfferFileInput,
  SubmitWordsOfferInput,
  SupplierPoAnswerInput,
  SupplierPoQueryInput,
  ThreadReplyInput,
} from '../app-types.js';
import type { OfferModalRef, SettingsValues, SlackMessage, SupplierPoRef } from './views/index.js';

/** Why a call was refused, and the sentence to show the person (written by Parley's services: trusted mrkdwn). */
export interface Refusal {
  error: string;
  message: string;
}

/** A call's answer as a listener reads it: done, or refused (told to the person privately). */
export type Outcome = { readonly ok: true } | ({ readonly ok: false } & Refusal);

/** A screen to show, or the refusal to tell instead. */
export type Shown<T> = { readonly ok: true; readonly value: T } | ({ readonly ok: false } & Refusal);

/** The calls the listeners make. Each resolves once its change is committed; slow work continues in the background. */
export interface Parley {
  /**
   * Resolves once the file is claimed (or skipped: not Parley's to read). Refused only for someone who asked for it
   * (the shortcut, `/parley negotiate`): not theirs to ask, Parley not in the channel, already read (with its thread).
   */
  fileShared(input: FileSharedInput): Promise<Outcome>;
  /** The channel's recent spreadsheets, for `/parley negotiate` without a link; refused where Parley is not in it. */
  recentFiles(teamId: string, channelId: string): Promise<Shown<RecentChannelFile[]>>;
  reviewItem(teamId: string, input: ReviewItemInput): Promise<Outcome>;
  confirmAll(teamId: string, input: ConfirmAllInput): Promise<Outcome>;
  /** Uploads every line of the quotation as the review workbook into its thread. */
  downloadReviewLines(teamId: string, input: DownloadReviewLinesInput): Promise<Outcome>;
  chooseSupplier(teamId: string, input: ChooseSupplierInput): Promise<Outcome>;
  /** Saves the supplier column picked on a comparison sheet; the file is then read again with it. */
  chooseComparisonColumn(teamId: string, input: ChooseComparisonColumnInput): Promise<Outcome>;
  showReviewPage(teamId: string, input: ShowReviewPageInput): Promise<Outcome>;
  beginNegotiation(teamId: string, input: BeginNegotiationInput): Promise<Outcome>;
  answerQuestion(teamId: string, input: AnswerQuestionInput): Promise<Outcome>;
  chooseCurveballStrategy(teamId: string, input: ChooseCurveballInput): Promise<Outcome>;
  /** The buyer's Send or Skip on a draft Alex wrote for a connected supplier. */
  decideDraft(teamId: string, input: DecideDraftInput): Promise<Outcome>;
  /** A person of a connected supplier submits its offer (refused to anyone else). */
  submitSupplierOffer(teamId: string, input: SubmitSupplierOfferInput): Promise<Outcome>;
  /** Submit this offer, under the offer Parley read from a supplier's revised quotation. */
  submitOfferFile(teamId: string, input: SubmitOfferFileInput): Promise<Outcome>;
  /** Submit this offer, under the offer Claude read in a supplier's words. */
  submitWordsOffer(teamId: string, input: SubmitWordsOfferInput): Promise<Outcome>;
  /** A person of a connected supplier accepts its part of the approved PO (refused to anyone else). */
  acceptSupplierPo(teamId: string, input: SupplierPoAnswerInput): Promise<Outcome>;
  /** Their question on it, to the buyer. */
  querySupplierPo(teamId: string, input: SupplierPoQueryInput): Promise<Outcome>;
  /** Paying above the quote takes this click; the negotiation is then concluded again. */
  acceptPremium(teamId: string, input: AcceptPremiumInput): Promise<Outcome>;
  /** One rating a person per recommendation: the same click again changes nothing. */
  rateRecommendation(teamId: string, input: RateRecommendationInput): Promise<Outcome>;
  /** Null when the reply answers nothing (no open question in that thread, or Parley is not installed). */
  threadReply(teamId: string, input: ThreadReplyInput): Promise<Outcome | null>;
  /** The author of a thread reply says which open question it answers (or none), on the post that asked. */
  answerWhichQuestion(teamId: string, input: AnswerWhichQuestionInput): Promise<Outcome>;
  approvePo(teamId: string, input: ApprovePoInput): Promise<Outcome>;
  rejectPo(teamId: string, input: RejectPoInput): Promise<Outcome>;
  /** Downloads, reads and checks a catalog file and stores its preview; resolves when the preview can be shown. */
  previewCatalog(teamId: string, input: PreviewCatalogInput): Promise<Shown<CatalogPreview>>;
  /** Resolves once the import is claimed; the catalog is written after, `finished` telling how it went. */
  importCatalog(teamId: string, input: ImportCatalogInput): Promise<Shown<CatalogImportStarted>>;
  cancelCatalogImport(teamId: string, input: CancelCatalogImportInput): Promise<Outcome>;
  /** Connects a supplier to a Slack Connect channel (`/parley suppliers`), once Slack confirms how it is shared. */
  connectSupplier(teamId: string, input: ConnectSupplierInput): Promise<Outcome>;
  /** Slack says a channel's sharing changed (channel_shared / channel_unshared): its supplier's connection is re-read. */
  channelSharingChanged(teamId: string, channelId: string): Promise<void>;
  /**
   * Someone opened the App Home: while the workspace has no approver, a Slack workspace admin who opens it becomes the
   * first one. Resolves false for everyone else (nothing changes), and when Parley is not set up in the team. Resolves
   * once that is saved; the person's Home is published after, in the background (so it shows them as an approver),
   * unless `shown` — the private_metadata of the view Slack shows now — says it is that view already.
   */
  homeOpened(teamId: string, userId: string, shown?: string | null): Promise<{ becameApprover: boolean }>;
  /**
   * Slack says Parley's bot token for the team is gone (`app_uninstalled`, or `tokens_revoked` naming bot tokens):
   * resolves once its installation is removed and its unsent Slack calls given up; nothing for a team not installed.
   */
  uninstalled(teamId: string, reason: 'app_uninstalled' | 'tokens_revoked'): Promise<void>;
}

/** What a listener shows one person right away, read from the database (and the settings, saved). */
export interface Screens {
  startModal(teamId: string, quotationId: string, userId: string): Promise<Shown<ModalView>>;
  poModal(teamId: string, purchaseOrderId: string, userId: string): Promise<Shown<ModalView>>;
  /** `ref`: the PO at the version the approver saw. */
  rejectModal(teamId: string, ref: { po: string; v: number }, userId: string): Promise<Shown<ModalView>>;
  channelStatus(teamId: string, channelId: string): Promise<SlackMessage>;
  /** A connected supplier's Submit offer modal, for a person of that supplier (`userTeamId`: their own team). */
  offerModal(teamId: string, ref: OfferModalRef, userTeamId: string | null): Promise<Shown<ModalView>>;
  /** A draft for a connected supplier in a modal, for the buyer to edit before sending. */
  draftEditModal(teamId: string, ref: { n: string; q: number }, userId: string): Promise<Shown<ModalView>>;
  /** The Query modal on a connected supplier's part of an approved PO, for a person of that supplier. */
  poQueryModal(teamId: string, ref: SupplierPoRef, userTeamId: string | null): Promise<Shown<ModalView>>;
  settingsModal(teamId: string, userId: string): Promise<Shown<ModalView>>;
  /** `/parley catalog` and the App Home's Import catalog: the upload modal, for approvers and admins. */
  catalogModal(teamId: string, userId: string): Promise<Shown<ModalView>>;
  /**
   * `/parley suppliers`: the connected suppliers and the form to connect one, for approvers and admins; from a review
   * card (`forQuotation`), with that quotation's supplier picked.
   */
  suppliersModal(teamId: string, userId: string, forQuotation?: string | null): Promise<Shown<ModalView>>;
  /** `basedOnVersion`: the settings version the modal showed (its private_metadata); a newer one refuses the save. */
  saveSettings(teamId: string, userId: string, values: SettingsValues, basedOnVersion: number): Promise<Outcome>;
  /** Where to tell someone privately about a refused submission (a modal has no channel of its own). */
  quotationChannel(teamId: string, quotationId: string): Promise<string | null>;
  purchaseOrderChannel(teamId: string, purchaseOrderId: string): Promise<string | null>;
}

export interface SlackDeps {
  parley: Parley;
  screens: Screens;
}
