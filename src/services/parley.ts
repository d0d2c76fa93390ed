// Parley as the Slack layer sees it: one object whose methods take what a Slack payload carries (team, user, channel,
// ids from button values), resolve the workspace, call one service, and start the slow part in the background. Each
// method is one delegation: what a call does lives in its service; what is left here is the wiring every call shares
// (the workspace, the outbox kick, the durable background jobs, `idle()`). A job a call starts (a read, a negotiation
// run) is stored before the call resolves, so the listener acknowledges only work that survives a crash.
import { z } from 'zod';
import type * as Inputs from '../app-types.js';
import type { EngineAgents } from '../negotiation/engine.js';
import { log } from '../log.js';
import { answerQuestion, chooseCurveball } from './negotiation/answer-question.js';
import { submitSupplierOffer } from './negotiation/submit-supplier-offer.js';
import { submitOfferFile } from './negotiation/supplier-offer-file.js';
import { proposeOfferFromWords, submitWordsOffer } from './negotiation/words-offer.js';
import { decideDraft } from './negotiation/supplier-drafts.js';
import { acceptSupplierPurchaseOrder, querySupplierPurchaseOrder } from './purchase-order/supplier-answer.js';
import { answerWhichQuestion } from './negotiation/answer-which-question.js';
import { receiveThreadReply, type ThreadReplyAnswer } from './negotiation/receive-thread-reply.js';
import { beginNegotiation } from './negotiation/begin-negotiation.js';
import { cancelCatalogImport } from './catalog/cancel-catalog-import.js';
import {
  type ChannelLookup,
  channelSharingChanged,
  type ConnectedSupplier,
  connectSupplier,
} from './suppliers/connect-supplier.js';
import { claimFirstApprover } from './workspace/claim-first-approver.js';
import { type UninstallReason, uninstallWorkspace } from './workspace/uninstall-workspace.js';
import { createHomeRefresh } from './home/publish-home.js';
import { applyCatalogImport, claimCatalogImport } from './catalog/import-catalog.js';
import { previewCatalogImport } from './catalog/preview-catalog-import.js';
import type { SlackFiles } from './quotation/download-shared-file.js';
import { driveNegotiation, giveUpNegotiation } from './negotiation/drive-negotiation.js';
import { acceptPremium } from './negotiation/accept-premium.js';
import { rateRecommendation } from './negotiation/rate-recommendation.js';
import { done, NOT_INSTALLED, type ServiceResult } from './outcome.js';
import { approvePurchaseOrder } from './purchase-order/approve-purchase-order.js';
import {
  giveUpPurchaseOrderWorkbook,
  sendPurchaseOrderWorkbook,
} from './purchase-order/send-purchase-order-workbook.js';
import type { PurchaseOrderResult } from './purchase-order/purchase-order-result.js';
import { rejectPurchaseOrder } from './purchase-order/reject-purchase-order.js';
import { giveUpReading, quotationToReread, readQuotation } from './quotation/read-quotation.js';
import { type ReceivedSlackFile, receiveSlackFile, recentChannelFiles } from './quotation/receive-shared-file.js';
import { chooseComparisonColumn } from './quotation/choose-comparison-column.js';
import { chooseSupplier, confirmAllSuggestions, reviewItem, showReviewPage } from './quotation/review-quotation.js';
import { giveUpReviewWorkbook, requestReviewWorkbook, sendReviewWorkbook } from './quotation/review-workbook.js';
import type { ContextFactory, ServiceContext } from './service-context.js';
import {
  type BackgroundWork,
  type DeadJob,
  DRIVE_NEGOTIATION,
  type JobHandlers,
  READ_QUOTATION,
  SEND_PO_WORKBOOK,
  SEND_REVIEW_WORKBOOK,
} from '../jobs/background-work.js';
import { type JobAttempt, jobLeaseOwner } from '../jobs/job-lease.js';
import type { ThreadActivity } from './thread-activity.js';

/** A call made in a Slack team's workspace: the service's answer, or a refusal when Parley is not installed there. */
type InTeam<R> = Promise<R | typeof NOT_INSTALLED>;

export interface Parley {
  /**
   * A file was shared (event), or pointed at (shortcut, `/parley negotiate`: `requestedBy`). Resolves once the file
   * is claimed — one quotation per Slack file, in the database — so the listener acknowledges only what will not be
   * lost to a crash; the reading runs after, in the background (and is picked up again after a crash). Refused only
   * for someone who asked (the sentence is for them); a share Parley does not read is done with nothing to do.
   */
  fileShared(input: Inputs.FileSharedInput): InTeam<ServiceResult<null>>;
  /** `/parley negotiate` without a link: the channel's recent spreadsheets, to pick one from. */
  recentFiles(teamId: string, channelId: string): InTeam<ServiceResult<Inputs.RecentChannelFile[]>>;
  reviewItem(teamId: string, input: Inputs.ReviewItemInput): InTeam<ServiceResult>;
  confirmAll(
    teamId: string,
    input: Inputs.ConfirmAllInput,
  ): InTeam<ServiceResult<{ confirmed: number; stillOpen: number; unseen: number }>>;
  /** Stores the request (a job) and resolves; the workbook is written and uploaded after the acknowledgement. */
  downloadReviewLines(
    teamId: string,
    input: Inputs.DownloadReviewLinesInput,
  ): InTeam<ServiceResult<{ quotationId: string }>>;
  chooseSupplier(teamId: string, input: Inputs.ChooseSupplierInput): InTeam<ServiceResult<{ supplierId: string }>>;
  /** Saves the pick, then queues the re-read of the file with that column. */
  chooseComparisonColumn(
    teamId: string,
    input: Inputs.ChooseComparisonColumnInput,
  ): InTeam<ServiceResult<{ fileId: string; supplier: string }>>;
  showReviewPage(teamId: string, input: Inputs.ShowReviewPageInput): InTeam<ServiceResult>;
  /** Starts the negotiation, then drives it in the background. */
  beginNegotiation(
    teamId: string,
    input: Inputs.BeginNegotiationInput,
  ): InTeam<ServiceResult<{ negotiationId: string }>>;
  /** Records the answer, then resumes the negotiation in the background when it was waiting for it. */
  answerQuestion(
    teamId: string,
    input: Inputs.AnswerQuestionInput,
  ): InTeam<ServiceResult<{ negotiationId: string; resume: boolean }>>;
  chooseCurveballStrategy(
    teamId: string,
    input: Inputs.ChooseCurveballInput,
  ): InTeam<ServiceResult<{ resume: boolean }>>;
  /** The buyer's Send or Skip on a draft for a connected supplier; a Skip resumes the round when it waited only for it. */
  decideDraft(
    teamId: string,
    input: Inputs.DecideDraftInput,
  ): InTeam<ServiceResult<{ negotiationId: string; resume: boolean }>>;
  /** A connected supplier's offer, recorded as submitted; the round goes on once it waits for nobody else. */
  submitSupplierOffer(
    teamId: string,
    input: Inputs.SubmitSupplierOfferInput,
  ): InTeam<ServiceResult<{ negotiationId: string; resume: boolean }>>;
  /** A connected supplier's offer as Parley read it from its revised quotation, recorded on its people's confirmation. */
  submitOfferFile(
    teamId: string,
    input: Inputs.SubmitOfferFileInput,
  ): InTeam<ServiceResult<{ negotiationId: string; resume: boolean }>>;
  /** A connected supplier's offer as Claude read it in its words, recorded on its people's confirmation. */
  submitWordsOffer(
    teamId: string,
    input: Inputs.SubmitWordsOfferInput,
  ): InTeam<ServiceResult<{ negotiationId: string; resume: boolean }>>;
  /** A connected supplier's acceptance of its part of the approved PO, recorded once. */
  acceptSupplierPo(teamId: string, input: Inputs.SupplierPoAnswerInput): InTeam<ServiceResult>;
  /** A connected supplier's question on its part of the approved PO, passed to the buyer. */
  querySupplierPo(teamId: string, input: Inputs.SupplierPoQueryInput): InTeam<ServiceResult>;
  /** Records the buyer's consent to a premium, then concludes the negotiation again in the background. */
  acceptPremium(teamId: string, input: Inputs.AcceptPremiumInput): InTeam<ServiceResult<{ resume: boolean }>>;
  rateRecommendation(teamId: string, input: Inputs.RateRecommendationInput): InTeam<ServiceResult>;
  /**
   * A thread message, recorded once per Slack message: it answers the one question open to its author, or Parley asks
   * which one when several are.
   */
  threadReply(teamId: string, input: Inputs.ThreadReplyInput): Promise<ThreadReplyAnswer | null>;
  /** Records the reply as the chosen question's answer, then resumes the negotiation when it was waiting for it. */
  answerWhichQuestion(
    teamId: string,
    input: Inputs.AnswerWhichQuestionInput,
  ): InTeam<ServiceResult<{ negotiationId: string; resume: boolean }>>;
  approvePo(teamId: string, input: Inputs.ApprovePoInput): InTeam<PurchaseOrderResult>;
  rejectPo(teamId: string, input: Inputs.RejectPoInput): InTeam<PurchaseOrderResult>;
  /** Reads, checks and stores a catalog file's preview (`/parley catalog`); the catalog does not change. */
  previewCatalog(teamId: string, input: Inputs.PreviewCatalogInput): InTeam<ServiceResult<Inputs.CatalogPreview>>;
  /** Claims the import, then writes the catalog in the background; `finished` resolves with what it did. */
  importCatalog(teamId: string, input: Inputs.ImportCatalogInput): InTeam<ServiceResult<Inputs.CatalogImportStarted>>;
  cancelCatalogImport(teamId: string, input: Inputs.CancelCatalogImportInput): InTeam<ServiceResult>;
  /** Checks the channel with Slack, then records it as the supplier's (and welcomes the supplier there). */
  connectSupplier(teamId: string, input: Inputs.ConnectSupplierInput): InTeam<ServiceResult<ConnectedSupplier>>;
  /** Re-reads a channel whose sharing changed and keeps its supplier's connection current. */
  channelSharingChanged(teamId: string, channelId: string): Promise<void>;
  /**
   * The App Home was opened: a Slack admin becomes the first approver of a workspace that has none. Resolves once that
   * is saved; the Home is then built and queued for publishing in the background (publish-home.ts), unless it is the
   * view Slack shows already (`shown`: the opened view's private_metadata).
   */
  homeOpened(teamId: string, userId: string, shown?: string | null): Promise<{ becameApprover: boolean }>;
  /** Slack says the team's bot token is gone: its installation is removed, its unsent Slack calls given up. */
  uninstalled(teamId: string, reason: UninstallReason): Promise<void>;
  /** Queues a run of the negotiation (resolves once the job is stored). */
  resume(workspaceId: string, negotiationId: string): Promise<void>;
  /** What the background jobs do, for this instance's workers (src/jobs/background-work.ts); the outbox's are wired apart. */
  readonly jobs: Omit<JobHandlers, 'sendOutbox'>;
  context(teamId: string): Promise<ServiceContext | null>;
  /** Resolves when no service call is running and no background job is waiting or running. */
  idle(): Promise<void>;
}

export interface ParleyOptions {
  contexts: ContextFactory;
  work: Pick<
    BackgroundWork,
    'driveNegotiation' | 'readQuotation' | 'sendReviewWorkbook' | 'sendPurchaseOrderWorkbook' | 'idle'
  >;
  agents: EngineAgents;
  /** This instance, for negotiation leases and read leases. */
  owner: string;
  files: SlackFiles;
  /** Outbox rows may have been committed: send their lanes' jobs (src/jobs/background-work.ts, `queueOutbox`). */
  kickOutbox: () => void;
  /** Shows in a negotiation's thread what runs now (assistant.threads.setStatus); silent when not given. */
  threadActivity?: ThreadActivity;
  /** Every negotiation's offline seed (the demo's `--seed`); by default each quotation's own. */
  negotiationSeed?: number;
  /**
   * Whether Parley can still speak in the workspace (it has a bot token): a negotiation or a read of a workspace that
   * uninstalled Parley is not driven on — no Claude turn is paid for what could never be posted. Default: always.
   */
  hasSlackToken?: (workspaceId: string) => Promise<boolean>;
}

export function createParley(options: ParleyOptions): Parley {
  const { contexts, work, files, owner } = options;
  /** conversations.info as the workspace's bot sees it. */
  const channelOf =
    (ctx: ServiceContext): ChannelLookup =>
    (channelId) =>
      files.channel(ctx.workspace.id, channelId);
  // Calls still running after their listener acked (a modal submission's service call): `idle()` waits for them too.
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  };

  const refreshHome = createHomeRefresh({ contexts, kickOutbox: options.kickOutbox });

  /** One service call in the team's workspace; the outbox is kicked after it, for the rows it may have written. */
  function inTeam<R>(teamId: string, act: (ctx: ServiceContext) => Promise<R>): InTeam<R> {
    return track(
      (async () => {
        const ctx = await contexts.forTeam(teamId);
        if (!ctx) return NOT_INSTALLED;
        const result = await act(ctx);
        options.kickOutbox();
        return result;
      })(),
    );
  }

  /** Queues a run of the negotiation (until it waits for the buyer or completes); resolves once it is stored. */
  const drive = (ctx: ServiceContext, negotiationId: string) =>
    work.driveNegotiation({ workspaceId: ctx.workspace.id, negotiationId });

  /** True (and says so) when the workspace has no bot token any more: its job ends without doing the work. */
  async function uninstalledFrom(workspaceId: string, what: Record<string, string>): Promise<boolean> {
    if (!options.hasSlackToken || (await options.hasSlackToken(workspaceId))) return false;
    // Left as it is: after a reinstall, Parley's next start queues it again (recovery on start).
    log.warn('not run: Parley has no Slack token for this workspace (uninstalled, or its token revoked)', {
      workspaceId,
      ...what,
    });
    return true;
  }

  /** The job: a run of the negotiation on this instance, under the lease of this attempt of the job. */
  async function driveJob(workspaceId: string, negotiationId: string, attempt: JobAttempt): Promise<void> {
    if (await uninstalledFrom(workspaceId, { negotiationId })) return;
    const ctx = await contexts.forWorkspace(workspaceId);
    if (!ctx) return;
    const outcome = await driveNegotiation(ctx, {
      negotiationId,
      agents: options.agents,
      owner: jobLeaseOwner(owner, attempt),
      activity: options.threadActivity,
    });
    options.kickOutbox();
    log.info('negotiation driven', { negotiationId, outcome });
    // An earlier attempt's lease is taken over (src/jobs/job-lease.ts); a lease held outside the jobs (a CLI run on
    // the same database) is waited for: the job is retried until that run ends or its lease expires.
    if (outcome === 'busy') throw new Error(`negotiation ${negotiationId} is leased to another run; retried later`);
  }

  /** The job: a read of a claimed quotation (files.info and the download, then the parse), under this attempt's lease. */
  async function readJob(workspaceId: string, quotationId: string, attempt: JobAttempt): Promise<void> {
    if (await uninstalledFrom(workspaceId, { quotationId })) return;
    const ctx = await contexts.forWorkspace(workspaceId);
    const file = ctx && (await quotationToReread(ctx, { quotationId, files }));
    if (!ctx || !file) return;
    const readOwner = jobLeaseOwner(owner, attempt);
    const outcome = await readQuotation(ctx, { quotationId, owner: readOwner, download: file.download });
    options.kickOutbox();
    log.info('quotation read', { quotationId, outcome });
    // Unread, yet a reader outside the jobs holds its lease (an earlier attempt's is taken over): retried until that
    // lease expires.
    if (
      outcome === 'already_read' &&
      (await ctx.db.quotation.count({ where: { id: quotationId, status: { in: ['received', 'parsing'] } } }))
    ) {
      throw new Error(`quotation ${quotationId} is leased to another reader; retried later`);
    }
  }

  /**
   * After a claim: the thread's 👀 and status card go out now, and the file is queued to be read — when this call
   * claimed it, or when an earlier claim's job was never stored (its event failed before the acknowledgement, and
   * this is Slack's retry). A read already queued for the file absorbs a second request.
   */
  async function readClaimed(ctx: ServiceContext, file: ReceivedSlackFile): Promise<void> {
    options.kickOutbox();
    const unread =
      file.isNew || (await ctx.db.quotation.count({ where: { id: file.quotationId, status: 'received' } }));
    if (unread) {
      await work.readQuotation({ workspaceId: ctx.workspace.id, quotationId: file.quotationId, fileId: file.fileId });
    }
  }

  /** The request is checked and stored as a job before the click is acknowledged; the job writes the workbook. */
  async function requestWorkbook(ctx: ServiceContext, input: Inputs.DownloadReviewLinesInput) {
    const result = await requestReviewWorkbook(ctx, input);
    if (result.ok) await work.sendReviewWorkbook({ workspaceId: ctx.workspace.id, quotationId: input.quotationId });
    return result;
  }

  /** The job: the review workbook written (in the compute worker) and queued for upload into the thread. */
  async function workbookJob(workspaceId: string, quotationId: string): Promise<void> {
    const ctx = await contexts.forWorkspace(workspaceId);
    if (!ctx) return;
    const result = await sendReviewWorkbook(ctx, { quotationId });
    options.kickOutbox();
    log.info('review workbook queued', { quotationId, lines: result.ok ? result.value.lines : null });
  }

  /**
   * The approval is committed (with its messages) before its workbook is queued, and the job before the submission is
   * answered; a process that dies in between leaves an approved PO without its workbook, which queue-unqueued-work
   * finds. A repeated submission on an approved PO queues it again: the job uploads it once.
   */
  async function approve(ctx: ServiceContext, input: Inputs.ApprovePoInput) {
    const result = await approvePurchaseOrder(ctx, input);
    if (result.ok && result.value.po.status === 'approved') {
      await work.sendPurchaseOrderWorkbook({ workspaceId: ctx.workspace.id, purchaseOrderId: result.value.po.id });
    }
    return result;
  }

  /** The job: the approved PO's workbook written (in the compute worker) and queued for upload into the thread. */
  async function poWorkbookJob(workspaceId: string, purchaseOrderId: string): Promise<void> {
    const ctx = await contexts.forWorkspace(workspaceId);
    if (!ctx) return;
    const result = await sendPurchaseOrderWorkbook(ctx, { purchaseOrderId });
    if (result.ok && result.changed) options.kickOutbox();
    log.info('PO workbook job done', { purchaseOrderId, queued: result.ok && result.changed });
  }

  async function receiveFile(ctx: ServiceContext, file: Omit<Inputs.FileSharedInput, 'teamId'>) {
    const received = await receiveSlackFile(ctx, { ...file, files });
    if (!received.ok) return received;
    if (received.value) await readClaimed(ctx, received.value);
    return done(null, received.changed);
  }

  /** The pick is saved first; the read it needs is queued before the click is acknowledged (a stored job). */
  async function pickColumn(ctx: ServiceContext, input: Inputs.ChooseComparisonColumnInput) {
    const result = await chooseComparisonColumn(ctx, input);
    if (result.ok && result.changed) {
      await work.readQuotation({
        workspaceId: ctx.workspace.id,
        quotationId: input.quotationId,
        fileId: result.value.fileId,
      });
    }
    return result;
  }

  async function begin(ctx: ServiceContext, input: Inputs.BeginNegotiationInput) {
    const result = await beginNegotiation(ctx, { ...input, seed: options.negotiationSeed });
    if (result.ok && result.changed) await drive(ctx, result.value.negotiationId);
    return result;
  }

  /** A step that may let the run go on (an answer, a supplier's offer): queued again when it does. */
  async function thenDrive<R extends ServiceResult<{ negotiationId: string; resume: boolean }>>(
    ctx: ServiceContext,
    result: R,
  ): Promise<R> {
    if (result.ok && result.value.resume) await drive(ctx, result.value.negotiationId);
    return result;
  }

  async function premium(ctx: ServiceContext, input: Inputs.AcceptPremiumInput) {
    const result = await acceptPremium(ctx, input);
    if (result.ok && result.value.resume) await drive(ctx, input.negotiationId);
    return result;
  }

  /**
   * A strategy picked while the run goes on: the choice is saved as a step of its own, and the run is queued again so
   * it continues from that checkpoint now — whether the step running meanwhile lost its save (and is computed again)
   * or no run was going (one that stopped, or one on a process that died).
   */
  async function curveball(ctx: ServiceContext, input: Inputs.ChooseCurveballInput) {
    const result = await chooseCurveball(ctx, input);
    if (result.ok && result.value.resume) await drive(ctx, input.negotiationId);
    return result;
  }

  async function answerReply(teamId: string, input: Inputs.ThreadReplyInput): Promise<ThreadReplyAnswer | null> {
    const ctx = await contexts.forTeam(teamId);
    if (!ctx) return null;
    const result = await receiveThreadReply(ctx, input);
    options.kickOutbox();
    if (result?.ok && result.value.resume) await drive(ctx, result.negotiationId);
    // With a key, the offer in a supplier's words is read after the words are kept: a proposal, lost to a crash at
    // no cost (the words and the form stand), so it is not a stored job.
    const proposeFrom = result?.ok ? result.value.proposeFrom : undefined;
    if (proposeFrom && ctx.llm) {
      void track(
        proposeOfferFromWords(ctx, proposeFrom).then((proposed) => {
          if (proposed) options.kickOutbox();
        }),
      ).catch((error: unknown) => log.error('proposing an offer from a supplier’s words failed', { error }));
    }
    return result;
  }

  /** The import is claimed now (before the acknowledgement); the catalog is written in the background. */
  async function importCatalog(ctx: ServiceContext, input: Inputs.ImportCatalogInput) {
    const claim = await claimCatalogImport(ctx, input);
    if (!claim.ok) return claim;
    if (claim.value.kind === 'applied') {
      const { report } = claim.value;
      return done({ fileName: report.fileName, finished: Promise.resolve(report) }, false);
    }
    // In this process: one transaction, and the claim is in the database (a second click finds it).
    const finished = applyCatalogImport(ctx, { importId: input.importId }).catch((error: unknown) => {
      log.error('catalog import failed', { error, importId: input.importId });
      return null;
    });
    return done({ fileName: claim.value.fileName, finished: track(finished) });
  }

  /**
   * A job that used up its retries: the negotiation or the file it was about is failed, and its thread told (once).
   * A lane of the outbox that failed for good is only logged: its rows keep their own attempts and failures, and
   * queue-unqueued-work sends the lane a new job while rows remain.
   */
  async function deadJob(job: DeadJob): Promise<void> {
    const negotiation = deadNegotiationSchema.safeParse(job.data);
    const quotation = deadQuotationSchema.safeParse(job.data);
    const purchaseOrder = deadPurchaseOrderSchema.safeParse(job.data);
    let told = false;
    if (job.queue === DRIVE_NEGOTIATION && negotiation.success) {
      const ctx = await contexts.forWorkspace(negotiation.data.workspaceId);
      told = ctx !== null && (await giveUpNegotiation(ctx, negotiation.data.negotiationId));
    } else if (job.queue === READ_QUOTATION && quotation.success) {
      const ctx = await contexts.forWorkspace(quotation.data.workspaceId);
      told = ctx !== null && (await giveUpReading(ctx, quotation.data.quotationId));
    } else if (job.queue === SEND_REVIEW_WORKBOOK && quotation.success) {
      const ctx = await contexts.forWorkspace(quotation.data.workspaceId);
      // Once per failed request: a later click that fails again is told again, a redelivery is not.
      const request = job.id ?? 'unknown';
      told = ctx !== null && changed(await giveUpReviewWorkbook(ctx, { ...quotation.data, request }));
    } else if (job.queue === SEND_PO_WORKBOOK && purchaseOrder.success) {
      const ctx = await contexts.forWorkspace(purchaseOrder.data.workspaceId);
      told = ctx !== null && changed(await giveUpPurchaseOrderWorkbook(ctx, purchaseOrder.data));
    }
    if (told) options.kickOutbox();
    log.warn('dead job handled', { queue: job.queue, jobId: job.id, told });
  }

  async function resume(workspaceId: string, negotiationId: string): Promise<void> {
    await work.driveNegotiation({ workspaceId, negotiationId });
  }

  return {
    fileShared: ({ teamId, ...file }) => inTeam(teamId, (ctx) => receiveFile(ctx, file)),
    recentFiles: (teamId, channelId) => inTeam(teamId, (ctx) => recentChannelFiles(ctx, { files, channelId })),
    reviewItem: (teamId, input) => inTeam(teamId, (ctx) => reviewItem(ctx, input)),
    confirmAll: (teamId, input) => inTeam(teamId, (ctx) => confirmAllSuggestions(ctx, input)),
    downloadReviewLines: (teamId, input) => inTeam(teamId, (ctx) => requestWorkbook(ctx, input)),
    chooseSupplier: (teamId, input) => inTeam(teamId, (ctx) => chooseSupplier(ctx, input)),
    chooseComparisonColumn: (teamId, input) => inTeam(teamId, (ctx) => pickColumn(ctx, input)),
    showReviewPage: (teamId, input) => inTeam(teamId, (ctx) => showReviewPage(ctx, input)),
    beginNegotiation: (teamId, input) => inTeam(teamId, (ctx) => begin(ctx, input)),
    answerQuestion: (teamId, input) => inTeam(teamId, async (ctx) => thenDrive(ctx, await answerQuestion(ctx, input))),
    decideDraft: (teamId, input) => inTeam(teamId, async (ctx) => thenDrive(ctx, await decideDraft(ctx, input))),
    submitSupplierOffer: (teamId, input) =>
      inTeam(teamId, async (ctx) => thenDrive(ctx, await submitSupplierOffer(ctx, input))),
    submitOfferFile: (teamId, input) =>
      inTeam(teamId, async (ctx) => thenDrive(ctx, await submitOfferFile(ctx, input))),
    submitWordsOffer: (teamId, input) =>
      inTeam(teamId, async (ctx) => thenDrive(ctx, await submitWordsOffer(ctx, input))),
    acceptSupplierPo: (teamId, input) => inTeam(teamId, (ctx) => acceptSupplierPurchaseOrder(ctx, input)),
    querySupplierPo: (teamId, input) => inTeam(teamId, (ctx) => querySupplierPurchaseOrder(ctx, input)),
    chooseCurveballStrategy: (teamId, input) => inTeam(teamId, (ctx) => curveball(ctx, input)),
    acceptPremium: (teamId, input) => inTeam(teamId, (ctx) => premium(ctx, input)),
    rateRecommendation: (teamId, input) => inTeam(teamId, (ctx) => rateRecommendation(ctx, input)),
    threadReply: (teamId, input) => track(answerReply(teamId, input)),
    answerWhichQuestion: (teamId, input) =>
      inTeam(teamId, async (ctx) => thenDrive(ctx, await answerWhichQuestion(ctx, input))),
    approvePo: (teamId, input) => inTeam(teamId, (ctx) => approve(ctx, input)),
    rejectPo: (teamId, input) => inTeam(teamId, (ctx) => rejectPurchaseOrder(ctx, input)),
    previewCatalog: (teamId, input) => inTeam(teamId, (ctx) => previewCatalogImport(ctx, { ...input, files })),
    importCatalog: (teamId, input) => inTeam(teamId, (ctx) => importCatalog(ctx, input)),
    cancelCatalogImport: (teamId, input) => inTeam(teamId, (ctx) => cancelCatalogImport(ctx, input)),
    connectSupplier: (teamId, input) => inTeam(teamId, (ctx) => connectSupplier(ctx, input, channelOf(ctx))),
    channelSharingChanged: async (teamId, channelId) => {
      await inTeam(teamId, (ctx) => channelSharingChanged(ctx, { channelId }, channelOf(ctx)));
    },
    uninstalled: async (teamId, reason) => {
      const ctx = await contexts.forTeam(teamId);
      if (ctx) await track(uninstallWorkspace(ctx, reason));
    },
    homeOpened: async (teamId, userId, shown) => {
      // The workspace as this process read it lately (service-context.ts `recentForTeam`): in steady state nothing
      // here touches the database before Slack is answered, and a workspace with approvers claims nothing. The claim
      // writes no outbox row: no kick.
      const ctx = await contexts.recentForTeam(teamId);
      if (!ctx) return { becameApprover: false };
      const claimed = await track(claimFirstApprover(ctx, { by: userId }));
      // The Home is built (five queries) and queued after the listener acknowledged: building it before the answer
      // made every app_home_opened wait on the database and Slack (ack p99 3 s in the large story). Held only in
      // memory until it is queued: a crash in between loses this publish, which the person's next open makes again.
      void track(refreshHome(teamId, userId, shown ?? null)).catch((error: unknown) =>
        log.error('could not publish an App Home', { error, teamId, userId }),
      );
      return { becameApprover: claimed.ok && claimed.value.becameApprover };
    },
    resume: (workspaceId, negotiationId) => resume(workspaceId, negotiationId),
    jobs: {
      driveNegotiation: ({ workspaceId, negotiationId }, attempt) => driveJob(workspaceId, negotiationId, attempt),
      readQuotation: ({ workspaceId, quotationId }, attempt) => readJob(workspaceId, quotationId, attempt),
      sendReviewWorkbook: ({ workspaceId, quotationId }) => workbookJob(workspaceId, quotationId),
      sendPurchaseOrderWorkbook: ({ workspaceId, purchaseOrderId }) => poWorkbookJob(workspaceId, purchaseOrderId),
      deadLetter: (job) => deadJob(job),
    },
    context: (teamId) => contexts.forTeam(teamId),
    async idle() {
      // A job may start a service call's follow-up and the other way round: until both are quiet together.
      do {
        await Promise.allSettled([...inFlight]);
        await work.idle();
      } while (inFlight.size > 0);
    },
  };
}

const deadNegotiationSchema = z.object({ workspaceId: z.string(), negotiationId: z.string() });
const deadQuotationSchema = z.object({ workspaceId: z.string(), quotationId: z.string() });
const deadPurchaseOrderSchema = z.object({ workspaceId: z.string(), purchaseOrderId: z.string() });

const changed = (result: ServiceResult<unknown>) => result.ok && result.changed;
