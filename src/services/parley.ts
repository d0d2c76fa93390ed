// Parley as the Slack layer sees it: one object whose methods take what a Slack payload carries (team, user, channel,
// ids from button values), resolve the workspace, call one service, and start the slow part in the background. The
// listeners stay thin: ack, parse, call one of these, render the answer.
import type { EngineAgents } from '../negotiation/engine.js';
import { log } from '../log.js';
import { tooLarge } from '../quotation/xlsx-errors.js';
import { type QuestionChoice, answerFromThreadReply, answerQuestion, chooseCurveball } from './answer-question.js';
import { beginNegotiation, type NegotiationRequest } from './begin-negotiation.js';
import { approvePo, rejectPo } from './decide-purchase-order.js';
import { driveNegotiation } from './drive-negotiation.js';
import { NOT_INSTALLED } from './outcome.js';
import { readQuotation } from './read-quotation.js';
import { looksLikeQuotation, receiveSharedFile } from './receive-shared-file.js';
import {
  chooseSupplier,
  confirmAllSuggestions,
  type ItemDecision,
  reviewItem,
  showReviewPage,
  type SupplierChoice,
} from './review-quotation.js';
import type { ContextFactory, ServiceContext } from './service-context.js';
import type { WorkQueue } from './work-queue.js';

/** What Parley needs from Slack outside the outbox: reading a shared file. */
export interface SlackFiles {
  info(
    workspaceId: string,
    fileId: string,
  ): Promise<{
    name: string;
    filetype: string | null;
    sizeBytes: number | null;
    downloadUrl: string | null;
    shareTs(channelId: string): string | null;
  }>;
  download(workspaceId: string, url: string, maxBytes: number): Promise<Buffer>;
  /** The ids of the files on one message (for `/parley negotiate` in its thread). */
  filesOfMessage(workspaceId: string, channelId: string, ts: string): Promise<string[]>;
}

export interface ParleyOptions {
  contexts: ContextFactory;
  work: WorkQueue;
  agents: EngineAgents;
  /** This instance, for negotiation leases. */
  owner: string;
  files: SlackFiles;
  /** New outbox rows were written: the poster should look now rather than at its next poll. */
  kickOutbox: () => void;
  /** Every negotiation's offline seed (the demo's `--seed`); by default each quotation's own. */
  negotiationSeed?: number;
}

export function createParley(options: ParleyOptions) {
  const { contexts, work } = options;
  // Calls still running after their listener acked (a modal submission's service call): `idle()` waits for them too.
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  };

  function withContext<R>(teamId: string, act: (ctx: ServiceContext) => Promise<R>): Promise<R | typeof NOT_INSTALLED> {
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

  /** The file's bytes from Slack, refused up front when files.info already says it is too large. */
  function downloader(ctx: ServiceContext, fileId: string, info: Awaited<ReturnType<SlackFiles['info']>>) {
    return async () => {
      if (info.sizeBytes !== null && info.sizeBytes > ctx.limits.maxBytes) {
        throw tooLarge(info.sizeBytes, ctx.limits.maxBytes);
      }
      if (!info.downloadUrl) throw new Error(`files.info gave no download URL for ${fileId}`);
      return options.files.download(ctx.workspace.id, info.downloadUrl, ctx.limits.maxBytes);
    };
  }

  /** Runs the negotiation in the background until it waits for the buyer or completes. */
  function drive(ctx: ServiceContext, negotiationId: string) {
    work.run(`negotiation:${negotiationId}`, async () => {
      const outcome = await driveNegotiation(ctx, { negotiationId, agents: options.agents, owner: options.owner });
      options.kickOutbox();
      log.info('negotiation driven', { negotiationId, outcome });
    });
  }

  const parley = {
    /**
     * A file was shared (event), or pointed at (shortcut, `/parley negotiate`: `explicit`). Resolves once the file is
     * claimed — one quotation per Slack file, in the database — so the listener acknowledges only what will not be
     * lost to a crash; the reading runs after, in the background (and is picked up again after a crash).
     */
    fileShared(input: {
      teamId: string;
      fileId: string;
      channelId: string;
      userId: string;
      threadTs: string | null;
      explicit: boolean;
    }): Promise<void> {
      return track(
        (async () => {
          const ctx = await contexts.forTeam(input.teamId);
          if (!ctx) return log.warn('file shared in a workspace Parley does not know', { teamId: input.teamId });
          const info = await options.files.info(ctx.workspace.id, input.fileId);
          if (!input.explicit && !looksLikeQuotation(info.name, info.filetype)) return;
          const threadTs = input.threadTs ?? info.shareTs(input.channelId);
          if (!threadTs) return log.warn('shared file without a message to thread on', { fileId: input.fileId });
          const received = await receiveSharedFile(ctx, {
            fileId: input.fileId,
            name: info.name,
            sizeBytes: info.sizeBytes,
            channelId: input.channelId,
            threadTs,
            sharedBy: input.userId,
          });
          options.kickOutbox();
          if (!received.isNew) return;
          work.run(`file:${input.teamId}:${input.fileId}`, async () => {
            const download = downloader(ctx, input.fileId, info);
            await readQuotation(ctx, { quotationId: received.quotationId, owner: options.owner, download });
            options.kickOutbox();
          });
        })(),
      );
    },

    // jobs: a quotation left `received`/`parsing` by a process that died is read again (the recovery sweep claims it
    // first, so one instance does this). Same file download as `fileShared`.
    rereadQuotation: async (workspaceId: string, quotationId: string) => {
      const ctx = await contexts.forWorkspace(workspaceId);
      const quotation = await ctx?.db.quotation.findUnique({
        where: { id: quotationId },
        select: { slackFileId: true },
      });
      if (!ctx || !quotation) return;
      const { slackFileId: fileId } = quotation;
      work.run(`file:${ctx.workspace.slackTeamId}:${fileId}`, async () => {
        // files.info inside the download: a file Slack no longer has fails the quotation (with a reply) rather than
        // leaving it stuck for the next sweep.
        const download = async () => downloader(ctx, fileId, await options.files.info(ctx.workspace.id, fileId))();
        const outcome = await readQuotation(ctx, { quotationId, owner: options.owner, download });
        options.kickOutbox();
        log.info('quotation read again', { quotationId, outcome });
      });
    },

    reviewItem: (teamId: string, input: { itemId: string; by: string; decision: ItemDecision; page: number }) =>
      withContext(teamId, (ctx) => reviewItem(ctx, input)),

    confirmAll: (teamId: string, input: { quotationId: string; by: string; page: number }) =>
      withContext(teamId, (ctx) => confirmAllSuggestions(ctx, input)),

    chooseSupplier: (
      teamId: string,
      input: { quotationId: string; by: string; choice: SupplierChoice; page: number },
    ) => withContext(teamId, (ctx) => chooseSupplier(ctx, input)),

    showReviewPage: (teamId: string, input: { quotationId: string; by: string; page: number }) =>
      withContext(teamId, (ctx) => showReviewPage(ctx, input)),

    beginNegotiation: (teamId: string, input: { quotationId: string; by: string; request: NegotiationRequest }) =>
      withContext(teamId, async (ctx) => {
        const result = await beginNegotiation(ctx, { ...input, seed: options.negotiationSeed });
        if (result.ok && result.changed) drive(ctx, result.value.negotiationId);
        return result;
      }),

    answerQuestion: (teamId: string, input: { questionId: string; by: string; choice: QuestionChoice }) =>
      withContext(teamId, async (ctx) => {
        const result = await answerQuestion(ctx, input);
        if (result.ok && result.value.resume) drive(ctx, result.value.negotiationId);
        return result;
      }),

    chooseCurveballStrategy: (teamId: string, input: { negotiationId: string; strategyId: string; by: string }) =>
      withContext(teamId, (ctx) => chooseCurveball(ctx, input)),

    /** `/parley negotiate` in a thread: the files of the thread's first message, read as if shared now. */
    negotiateFilesOf: async (teamId: string, input: { channelId: string; messageTs: string; userId: string }) => {
      const ctx = await contexts.forTeam(teamId);
      if (!ctx) return;
      const files = await options.files.filesOfMessage(ctx.workspace.id, input.channelId, input.messageTs);
      for (const fileId of files) {
        parley.fileShared({
          teamId,
          fileId,
          channelId: input.channelId,
          userId: input.userId,
          threadTs: input.messageTs,
          explicit: true,
        });
      }
    },

    /** A thread message: answers the oldest open question of the thread's negotiation, if there is one. */
    threadReply: (teamId: string, input: { channelId: string; threadTs: string; text: string; by: string }) =>
      track(
        (async () => {
          const ctx = await contexts.forTeam(teamId);
          if (!ctx) return null;
          const result = await answerFromThreadReply(ctx, input);
          options.kickOutbox();
          if (result?.ok && result.value.resume) drive(ctx, result.negotiationId);
          return result;
        })(),
      ),

    approvePo: (teamId: string, input: { purchaseOrderId: string; by: string; expectedVersion: number }) =>
      withContext(teamId, (ctx) => approvePo(ctx, input)),

    rejectPo: (
      teamId: string,
      input: { purchaseOrderId: string; by: string; reason: string; expectedVersion: number },
    ) => withContext(teamId, (ctx) => rejectPo(ctx, input)),

    /** Resumes a negotiation (recovery on start, the lease sweep). */
    resume: async (workspaceId: string, negotiationId: string) => {
      const ctx = await contexts.forWorkspace(workspaceId);
      if (ctx) drive(ctx, negotiationId);
    },

    context: (teamId: string) => contexts.forTeam(teamId),
    /** Resolves when no service call, background task or queued task is left. */
    async idle() {
      while (inFlight.size > 0 || work.size > 0) {
        await Promise.allSettled([...inFlight]);
        await work.idle();
      }
    },
  };
  return parley;
}
export type Parley = ReturnType<typeof createParley>;
