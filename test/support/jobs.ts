// Fixtures for the jobs' database tests: a seeded workspace and negotiations driven by the offline agents straight
// through the store (with their thread's outbox rows, as the Slack flow writes them) to the point a job looks at.
import { loadEnv } from '../../src/config/env.js';
import type { PrismaClient } from '../../src/db/client.js';
import { scopeToWorkspace } from '../../src/db/scoped.js';
import { seedWorkspace } from '../../src/db/seed.js';
import { createOfflineBrandAgent } from '../../src/negotiation/agents/offline/brand-agent.js';
import { createOfflineSupplierAgent } from '../../src/negotiation/agents/offline/supplier-agent.js';
import { nextOpenQuestion } from '../../src/negotiation/ask-info.js';
import type { EngineAgents, NegotiationSetup } from '../../src/negotiation/engine.js';
import { exampleSetup } from './negotiation-fixtures.js';
import { seedNegotiationSuppliers } from './negotiation-workspace.js';
import { applyBuyerInput, runNegotiation, startNegotiation } from '../../src/db/stores/negotiation-store.js';
import { concludeNegotiation } from '../../src/services/negotiation/drive-negotiation.js';
import { createContextFactory } from '../../src/services/service-context.js';
import { enqueueNegotiationEvents } from '../../src/thread/negotiation-events.js';
import { enqueueReadingCard } from '../../src/thread/status-card.js';

export const BUYER = 'U0BUYER001';
export const APPROVERS = ['U0APPROV01', 'U0APPROV02'] as const;
export const CHANNEL_ID = 'C0JOBS0001';

export const offlineAgents: EngineAgents = {
  brand: createOfflineBrandAgent(),
  supplier: () => createOfflineSupplierAgent(),
};

/** Where a fixture negotiation's quotation was shared, and by whom. */
export interface NegotiationPlace {
  channelId?: string;
  threadTs?: string;
  buyer?: string;
  /** Enqueue the status card first, as a file's receipt does: in a thread Parley really posts to, the steps edit it. */
  statusCard?: boolean;
}

export async function createJobsFixture(prisma: PrismaClient, slackTeamId: string) {
  const { workspaceId } = await seedWorkspace(prisma, {
    slackTeamId,
    brandName: 'Valden Outdoor',
    catalog: [],
    approvers: [...APPROVERS],
  });
  const ws = scopeToWorkspace(prisma, workspaceId);
  const supplierIds = await seedNegotiationSuppliers(ws);
  const env = loadEnv({ PO_DUAL_APPROVAL_ABOVE_USD: '1' });
  const contexts = createContextFactory({ prisma, env, llm: null });
  let files = 0;

  /**
   * `place`: a thread of its own in CHANNEL_ID by default; an end-to-end test names a real thread and buyer. `setup`
   * changes the example's (a connected supplier's profile, say).
   */
  async function newNegotiation(seed: number, place: NegotiationPlace = {}, setup: Partial<NegotiationSetup> = {}) {
    files += 1;
    const buyer = place.buyer ?? BUYER;
    const quotation = await ws.quotation.create({
      data: {
        workspaceId,
        slackFileId: `F0JOB${files}`,
        slackChannelId: place.channelId ?? CHANNEL_ID,
        slackThreadTs: place.threadTs ?? `1700000000.${String(files).padStart(6, '0')}`,
        uploadedBySlackUserId: buyer,
        fileName: `quote-${files}.xlsx`,
        status: 'negotiating',
      },
    });
    if (place.statusCard) await ws.$transaction((tx) => enqueueReadingCard(tx, quotation.id));
    return startNegotiation(
      ws,
      {
        quotationId: quotation.id,
        startedBySlackUserId: buyer,
        setup: { ...exampleSetup(seed), ...setup },
        supplierIds,
        questionBudget: 3,
      },
      async (tx, events, state) => {
        const { id } = await tx.negotiation.findUniqueOrThrow({ where: { quotationId: quotation.id } });
        await enqueueNegotiationEvents(tx, { negotiationId: id, events, state });
      },
    );
  }

  const alsoWrite =
    (negotiationId: string): Parameters<typeof runNegotiation>[4] =>
    (tx, events, state) =>
      enqueueNegotiationEvents(tx, { negotiationId, events, state });

  /** Runs a new negotiation until it waits for the buyer; tries the next seeds until one asks something. */
  async function pausedNegotiation(seed: number, place: NegotiationPlace = {}) {
    for (let s = seed; s < seed + 20; s++) {
      const { negotiationId } = await newNegotiation(s, place);
      const state = await runNegotiation(ws, negotiationId, offlineAgents, 'fixture', alsoWrite(negotiationId));
      if (state?.status === 'awaiting_answer' || state?.status === 'awaiting_early_termination') {
        return { negotiationId, state };
      }
    }
    throw new Error(`no seed from ${seed} pauses`);
  }

  /**
   * A negotiation whose quoting supplier is connected (its row given `slackTeamId` and a channel), run — answering the
   * buyer's questions with their first suggestion — until the round waits for that supplier.
   */
  async function waitingForConnectedSupplier(seed: number, slackTeamId: string) {
    await ws.supplier.update({
      where: { id: supplierIds['SUP-001'] },
      data: { slackChannelId: 'C0SHARED01', slackTeamId },
    });
    const setup = exampleSetup(seed);
    const [quoted, ...others] = setup.profiles;
    if (!quoted) throw new Error('the example names the quoting supplier first');
    const { negotiationId } = await newNegotiation(
      seed,
      {},
      { profiles: [{ ...quoted, counterpart: 'connected' }, ...others] },
    );
    for (let guard = 0; guard < 10; guard++) {
      const state = await runNegotiation(ws, negotiationId, offlineAgents, 'fixture', alsoWrite(negotiationId));
      if (state?.status === 'awaiting_suppliers') {
        const row = await ws.negotiationSupplier.findFirstOrThrow({
          where: { negotiationId, supplierId: supplierIds['SUP-001'] },
        });
        return { negotiationId, negotiationSupplierId: row.id, state };
      }
      const question = state && nextOpenQuestion(state.askInfo);
      if (!question) throw new Error(`seed ${seed} stopped at ${state?.status}`);
      const answer = question.suggestedAnswers[0] ?? 'Yes';
      await applyBuyerInput(
        ws,
        negotiationId,
        { kind: 'answer', questionId: question.id, answer, by: BUYER },
        alsoWrite(negotiationId),
      );
    }
    throw new Error('the negotiation never waited for the supplier');
  }

  /** Runs to completion answering with the first suggestion, then concludes: a decision and a draft PO. */
  async function decidedNegotiation(seed: number) {
    const { negotiationId } = await newNegotiation(seed);
    for (let guard = 0; guard < 30; guard++) {
      const state = await runNegotiation(ws, negotiationId, offlineAgents, 'fixture', alsoWrite(negotiationId));
      if (!state || state.status === 'completed') break;
      const question = nextOpenQuestion(state.askInfo);
      const input =
        state.status === 'awaiting_early_termination'
          ? ({ kind: 'early_termination', finish: true, by: BUYER } as const)
          : question
            ? ({
                kind: 'answer',
                questionId: question.id,
                answer: question.suggestedAnswers[0] ?? 'Yes',
                by: BUYER,
              } as const)
            : null;
      if (input) await applyBuyerInput(ws, negotiationId, input, alsoWrite(negotiationId));
    }
    const ctx = await contexts.forWorkspace(workspaceId);
    if (!ctx) throw new Error('no context');
    await concludeNegotiation(ctx, negotiationId);
    const po = await ws.purchaseOrder.findFirstOrThrow({ where: { negotiationId } });
    return { negotiationId, po };
  }

  return {
    workspaceId,
    ws,
    contexts,
    env,
    supplierIds,
    pausedNegotiation,
    waitingForConnectedSupplier,
    decidedNegotiation,
  };
}
