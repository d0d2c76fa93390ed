// What the listeners get, declared here so the Slack layer depends on this and nothing else of Parley: the calls they
// make (one per user action) and the screens (modals, App Home, command replies) rendered from the database. No
// Prisma, Anthropic or exceljs in the Slack layer; src/server.ts plugs the services in.
import type { HomeView, ModalView } from '@slack/types';
import type {
  AcceptPremiumInput,
  AnswerQuestionInput,
  ApprovePoInput,
  BeginNegotiationInput,
  ChooseCurveballInput,
  ChooseSupplierInput,
  ConfirmAllInput,
  FileSharedInput,
  FilesOfMessageInput,
  RejectPoInput,
  ReviewItemInput,
  ShowReviewPageInput,
  ThreadReplyInput,
} from '../app-types.js';
import type { SettingsValues, SlackMessage } from './views/index.js';

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
  /** Resolves once the file is claimed (or skipped: not a spreadsheet nobody asked for). */
  fileShared(input: FileSharedInput): Promise<void>;
  reviewItem(teamId: string, input: ReviewItemInput): Promise<Outcome>;
  confirmAll(teamId: string, input: ConfirmAllInput): Promise<Outcome>;
  chooseSupplier(teamId: string, input: ChooseSupplierInput): Promise<Outcome>;
  showReviewPage(teamId: string, input: ShowReviewPageInput): Promise<Outcome>;
  beginNegotiation(teamId: string, input: BeginNegotiationInput): Promise<Outcome>;
  answerQuestion(teamId: string, input: AnswerQuestionInput): Promise<Outcome>;
  chooseCurveballStrategy(teamId: string, input: ChooseCurveballInput): Promise<Outcome>;
  /** Paying above the quote takes this click; the negotiation is then concluded again. */
  acceptPremium(teamId: string, input: AcceptPremiumInput): Promise<Outcome>;
  negotiateFilesOf(teamId: string, input: FilesOfMessageInput): Promise<void>;
  /** Null when the reply answers nothing (no open question in that thread, or Parley is not installed). */
  threadReply(teamId: string, input: ThreadReplyInput): Promise<Outcome | null>;
  approvePo(teamId: string, input: ApprovePoInput): Promise<Outcome>;
  rejectPo(teamId: string, input: RejectPoInput): Promise<Outcome>;
}

/** What a listener shows one person right away, read from the database (and the settings, saved). */
export interface Screens {
  startModal(teamId: string, quotationId: string, userId: string): Promise<Shown<ModalView>>;
  poModal(teamId: string, purchaseOrderId: string, userId: string): Promise<Shown<ModalView>>;
  /** `ref`: the PO at the version the approver saw. */
  rejectModal(teamId: string, ref: { po: string; v: number }, userId: string): Promise<Shown<ModalView>>;
  /** Null when Parley is not installed in the team. */
  home(teamId: string, userId: string): Promise<HomeView | null>;
  channelStatus(teamId: string, channelId: string): Promise<SlackMessage>;
  settingsModal(teamId: string, userId: string): Promise<Shown<ModalView>>;
  saveSettings(teamId: string, userId: string, values: SettingsValues): Promise<Outcome>;
  /** Where to tell someone privately about a refused submission (a modal has no channel of its own). */
  quotationChannel(teamId: string, quotationId: string): Promise<string | null>;
  purchaseOrderChannel(teamId: string, purchaseOrderId: string): Promise<string | null>;
}

export interface SlackDeps {
  parley: Parley;
  screens: Screens;
}
