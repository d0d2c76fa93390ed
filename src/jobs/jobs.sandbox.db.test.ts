// The jobs and crash recovery through the local Slack stand-in and the real Bolt receiver: a process dies in the middle
// of a negotiation (and of reading a file, and of sending the outbox); the next one starts and finishes everything,
// with the same offers as an uninterrupted run and nothing said twice. Then the reminders and the expiry, as the
// thread and the App Home show them.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../config/env.js';
import { sharedWorkers } from '../../test/support/shared-workers.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { startRequest } from '../../test/support/negotiation-fixtures.js';
import { createNegotiationAgents } from '../negotiation/agents/create-agents.js';
import { nextOpenQuestion } from '../negotiation/ask-info.js';
import {
  advance,
  answer,
  decideEarlyTermination,
  type NegotiationState,
  runUntilBlocked,
} from '../negotiation/engine.js';
import { acquireLease, loadCheckpoint, saveStep } from '../db/stores/negotiation-store.js';
import type { SandboxMessage } from '../../dev/slack-stand-in/model.js';
import { buttonsIn } from '../../dev/slack-stand-in/play-story.js';
import {
  CHANNEL,
  PEOPLE,
  type SandboxedParley,
  startSandboxedParley,
  TEAM_ID,
} from '../../dev/slack-stand-in/sandboxed-parley.js';
import { startParley, type ParleyServer } from '../server.js';
import { chooseCurveball } from '../services/negotiation/answer-question.js';
import { beginNegotiation } from '../services/negotiation/begin-negotiation.js';
import { receiveSharedFile } from '../services/quotation/receive-shared-file.js';
import { createContextFactory } from '../services/service-context.js';
import { enqueueNegotiationEvents } from '../thread/negotiation-events.js';
import { ACTION, CALLBACK } from '../slack/ids.js';
import { enqueueSlackCall } from '../outbox/index.js';
import { expirePausedNegotiations } from './expire-paused-negotiations.js';
import { DAY_MS, HOUR_MS } from '../time.js';
import { remindApprovers } from './remind-approvers.js';
import { remindUnansweredQuestions } from './remind-unanswered-questions.js';

const SEED = 7;
const MINUTE = 60_000;
const sample = (name: string) => readFile(new URL(`../../data/samples/${name}`, import.meta.url));
const buyer = PEOPLE.buyer.id;

let db: TestDatabase;
let first: SandboxedParley;
let second: ParleyServer | undefined;
let secondEnv: Env;

beforeAll(async () => {
  db = await createTestDatabase('seeded');
  first = await startSandboxedParley({ ...sharedWorkers(), db, env: { JOBS_ENABLED: 'false' }, negotiationSeed: SEED });
}, 120_000);

afterAll(async () => {
  await second?.stop();
  await first?.sandbox.close();
  await db?.destroy();
});

const thread = (ts: string) => first.sandbox.model.thread(CHANNEL.id, ts);
const settle = () => (second ? second.settle() : first.settle());
const withButton = (ts: string, actionId: string) =>
  thread(ts).filter((m) => buttonsIn(m).some((b) => b.actionId === actionId || b.actionId.startsWith(`${actionId}:`)));
const keysIn = (messages: SandboxMessage[]) =>
  messages.flatMap((m) => {
    const key = m.metadata?.event_payload?.key;
    return typeof key === 'string' ? [key] : [];
  });

async function click(userId: string, message: SandboxMessage, actionId: string, value: string | undefined) {
  await first.sandbox.driver.clickButton(userId, { channel: CHANNEL.id, ts: message.ts }, actionId, { value });
  await settle();
}

/** The buyer settles the review as play-story does: confirms the suggestions, names the supplier, line by line. */
async function settleReview(ts: string) {
  for (let step = 0; step < 100; step++) {
    const review = withButton(ts, ACTION.reviewConfirmAll)[0] ?? withButton(ts, ACTION.reviewSupplierCreate)[0];
    if (!review) return;
    const buttons = buttonsIn(review);
    const next =
      buttons.find((b) => b.actionId === ACTION.reviewSupplierUseExisting) ??
      buttons.find((b) => b.actionId === ACTION.reviewSupplierCreate) ??
      buttons.find((b) => b.actionId === ACTION.reviewConfirmAll) ??
      buttons.find((b) => b.actionId === ACTION.reviewConfirm) ??
      buttons.find((b) => b.actionId === ACTION.reviewNotInCatalog);
    if (!next) return;
    const before = JSON.stringify(review.blocks);
    await click(buyer, review, next.actionId, next.value);
    const after = first.sandbox.model.message(CHANNEL.id, review.ts);
    if (JSON.stringify(after?.blocks) === before && next.actionId === ACTION.reviewConfirmAll) {
      const line = buttonsIn(review).find((b) => b.actionId === ACTION.reviewConfirm);
      if (!line) return;
      await click(buyer, review, line.actionId, line.value);
    }
  }
}

/** The buyer answers each question with its first suggestion (Finish now when offered) until the decision is in. */
async function answerUntilDecided(ts: string) {
  for (let step = 0; step < 50; step++) {
    if (withButton(ts, ACTION.decisionOpenPo).length > 0) return;
    const early = withButton(ts, ACTION.earlyTerminationFinish)[0];
    const question = withButton(ts, ACTION.questionAnswer)[0];
    if (early) {
      const finish = buttonsIn(early).find((b) => b.actionId === ACTION.earlyTerminationFinish);
      await click(buyer, early, ACTION.earlyTerminationFinish, finish?.value);
    } else if (question) {
      const answerButton = buttonsIn(question).find((b) => b.actionId.startsWith(ACTION.questionAnswer));
      if (!answerButton) throw new Error('a question without answers');
      await click(buyer, question, answerButton.actionId, answerButton.value);
    } else {
      await settle();
      if (withButton(ts, ACTION.decisionOpenPo).length === 0 && !withButton(ts, ACTION.questionAnswer)[0]) {
        throw new Error('the negotiation stopped without a question or a decision');
      }
    }
  }
  throw new Error('no decision after 50 answers');
}

/** The same negotiation, uninterrupted and in memory: answered with the first suggestion, finished when offered. */
async function uninterrupted(initial: NegotiationState): Promise<NegotiationState> {
  const agents = createNegotiationAgents(null);
  let state = initial;
  for (let guard = 0; guard < 50 && state.status !== 'completed'; guard++) {
    state = await runUntilBlocked(state, agents);
    if (state.status === 'awaiting_early_termination') state = decideEarlyTermination(state, true, buyer).state;
    for (let q = nextOpenQuestion(state.askInfo); q; q = nextOpenQuestion(state.askInfo)) {
      state = answer(state, q.id, q.suggestedAnswers[0] ?? 'Yes', buyer).state;
    }
  }
  return state;
}

const offersOf = (state: NegotiationState) =>
  Object.fromEntries(state.profiles.map((p) => [p.code, state.suppliers[p.code]?.offers.map((o) => o.total)]));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

describe('a process that dies, and the one that starts after it', () => {
  let negotiationId = '';
  let crashTs = '';

  it('resumes the negotiation from its checkpoint, reads the stuck file, sends the unsent outbox', async () => {
    const { driver, model } = first.sandbox;
    const shared = await driver.shareFile(buyer, CHANNEL.id, {
      name: 'crash.xlsx',
      bytes: await sample('01-clean-baseline.xlsx'),
    });
    crashTs = shared.ts;
    await first.settle();
    await settleReview(crashTs);
    const ctx = await first.server.parley.context(TEAM_ID);
    if (!ctx) throw new Error('no workspace');
    const quotation = await db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: crashTs } });
    expect(quotation.status).toBe('ready');

    // The dying process: starts the negotiation and takes a few steps under its lease, then is gone.
    const begun = await beginNegotiation(ctx, {
      quotationId: quotation.id,
      by: buyer,
      request: { ...startRequest, maxRounds: 4, questionBudget: 3 },
      seed: SEED,
    });
    if (!begun.ok) throw new Error('the negotiation did not start');
    negotiationId = begun.value.negotiationId;
    const start = await loadCheckpoint(ctx.db, negotiationId);
    const reference = await uninterrupted(start.state);
    expect(await acquireLease(ctx.db, negotiationId, 'dead-process')).toBe(true);
    const agents = createNegotiationAgents(null);
    let { state, version } = start;
    for (let step = 0; step < 3; step++) {
      const result = await advance(state, agents);
      version = await saveStep(ctx.db, negotiationId, version, result, (tx, events, next) =>
        enqueueNegotiationEvents(tx, { negotiationId, events, state: next }),
      );
      state = result.state;
    }
    expect(state.status).toBe('running');
    await db.prisma.negotiation.update({
      where: { id: negotiationId },
      data: { leaseExpiresAt: new Date(Date.now() - MINUTE) },
    });
    expect((await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).status).toBe(
      'negotiating',
    );

    // A file whose event reached the dying process: claimed, never read.
    first.sandbox.setEventsUrl('http://127.0.0.1:9/slack/events');
    await driver
      .shareFile(buyer, CHANNEL.id, { name: 'stuck.xlsx', bytes: await sample('01-clean-baseline.xlsx') })
      .catch(() => null);
    const stuckMessage = model.topLevel(CHANNEL.id).at(-1);
    const stuckFile = stuckMessage?.fileIds[0];
    if (!stuckMessage || !stuckFile) throw new Error('the stuck file was not shared');
    const received = await receiveSharedFile(ctx, {
      fileId: stuckFile,
      name: 'stuck.xlsx',
      sizeBytes: null,
      channelId: CHANNEL.id,
      threadTs: stuckMessage.ts,
      messageTs: stuckMessage.ts,
      sharedBy: buyer,
      externalChannel: false,
    });
    await first.settle();
    await first.server.stop();
    await db.prisma.quotation.update({
      where: { id: received.quotationId },
      data: { updatedAt: new Date(Date.now() - 10 * MINUTE) },
    });

    // Outbox rows it wrote and never sent, and one the next process's name had locked before a restart.
    await enqueueSlackCall(ctx.db, {
      dedupeKey: 'test:written-not-sent',
      method: 'chat.postMessage',
      channelId: CHANNEL.id,
      payload: { text: 'written before the crash' },
    });
    await enqueueSlackCall(ctx.db, {
      dedupeKey: 'test:locked-by-previous',
      method: 'chat.postMessage',
      channelId: CHANNEL.id,
      payload: { text: 'locked by the previous process' },
    });
    const previousLockEnds = new Date(Date.now() + 50_000);
    await db.prisma.slackOutbox.updateMany({
      where: { dedupeKey: 'test:locked-by-previous' },
      data: { status: 'sending', attempts: 1, lockedBy: 'parley-b#4', lockedUntil: previousLockEnds },
    });

    // The next process starts: recovery on start finds all of it.
    const port = await freePort();
    secondEnv = { ...first.env, PORT: port, INSTANCE_ID: 'parley-b', JOBS_ENABLED: false };
    second = await startParley({ env: secondEnv, db, postIntervalMs: 20, negotiationSeed: SEED });
    first.sandbox.setEventsUrl(`http://127.0.0.1:${port}/slack/events`);
    // No bound on how long the recovery takes as a whole: reading the stuck file and resuming the negotiation took 31 s
    // on a machine at load 15-20, and a 20 s settle failed there. The row's own send time is what shows it was handed
    // back on start rather than waited out (below).
    await second.settle(120_000);

    const stuck = await db.prisma.quotation.findUniqueOrThrow({ where: { id: received.quotationId } });
    expect(['review', 'ready']).toContain(stuck.status);
    expect(JSON.stringify(thread(stuckMessage.ts).map((m) => m.blocks))).toMatch(/Ready to negotiate|a look/);
    const channelKeys = keysIn(model.messages(CHANNEL.id));
    expect(channelKeys.filter((k) => k === 'test:written-not-sent')).toHaveLength(1);
    expect(channelKeys.filter((k) => k === 'test:locked-by-previous')).toHaveLength(1);
    const handedBack = await db.prisma.slackOutbox.findFirstOrThrow({
      where: { dedupeKey: 'test:locked-by-previous' },
    });
    expect(handedBack.status).toBe('sent');
    expect(handedBack.sentAt?.getTime()).toBeLessThan(previousLockEnds.getTime());

    await answerUntilDecided(crashTs);
    const final = await loadCheckpoint(ctx.db, negotiationId);
    expect(final.state.status).toBe('completed');
    expect(offersOf(final.state)).toEqual(offersOf(reference));
    const totals = await db.prisma.negotiationSupplier.findMany({ where: { negotiationId } });
    expect(totals.map((s) => Number(s.finalOfferTotal)).sort()).toEqual(
      reference.profiles.map((p) => reference.suppliers[p.code]?.offers.at(-1)?.total ?? NaN).sort(),
    );

    // Every agent turn is in the thread once: each round is one message, posted once, holding each of its turns.
    const keys = keysIn(thread(crashTs));
    expect(new Set(keys).size).toBe(keys.length);
    const turns = await db.prisma.message.findMany({
      where: { negotiationId, role: { in: ['brand_agent', 'supplier_agent'] } },
      select: { sequence: true },
    });
    const rounds = new Set(Object.values(final.state.suppliers).flatMap((s) => s.messages.map((m) => m.round)));
    const posted = keys.filter((k) => k.startsWith(`neg:${negotiationId}:round:`));
    expect(posted.sort()).toEqual([...rounds].map((round) => `neg:${negotiationId}:round:${round}`).sort());
    const turnLines = thread(crashTs)
      .filter((m) => m.metadata && posted.includes(keysIn([m])[0] ?? ''))
      .flatMap((m) => (m.blocks ?? []).map((b) => JSON.stringify(b)))
      .filter((b) => /"text":"\*[^*]*(?: → [^*]*|\(simulated\)):\* /.test(b));
    expect(turnLines).toHaveLength(turns.length);
  }, 240_000);

  it('reminds the approvers of the draft PO a day later, with a button that opens it', async () => {
    const po = await db.prisma.purchaseOrder.findFirstOrThrow({ where: { negotiationId } });
    expect(po.status).toBe('draft');
    const contexts = createContextFactory({ prisma: db.prisma, env: secondEnv, llm: null });
    const remind = (now: Date) => remindApprovers({ prisma: db.prisma, contexts, now });
    await remind(new Date(po.createdAt.getTime() + DAY_MS + MINUTE));
    await remind(new Date(po.createdAt.getTime() + DAY_MS + 2 * MINUTE));
    await settle();
    const reminders = thread(crashTs).filter((m) => m.text.startsWith('Reminder:'));
    expect(reminders).toHaveLength(1);
    const [reminder] = reminders;
    if (!reminder) throw new Error('no reminder');
    const text = JSON.stringify(reminder.blocks);
    expect(text).toContain(`<@${PEOPLE.approver.id}>`);
    expect(text).toContain(po.number);
    const open = buttonsIn(reminder).find((b) => b.actionId === ACTION.decisionOpenPo);
    await first.sandbox.driver.clickButton(
      PEOPLE.approver.id,
      { channel: CHANNEL.id, ts: reminder.ts },
      ACTION.decisionOpenPo,
      {
        value: open?.value,
      },
    );
    const modal = await first.sandbox.waitFor(
      () =>
        first.sandbox.model.openViews(PEOPLE.approver.id).find((view) => view.view.callback_id === CALLBACK.poModal),
      { what: 'the PO modal' },
    );
    expect(JSON.stringify(modal.view)).toContain(po.number);
  }, 60_000);
});

describe('reminders and expiry in the thread', () => {
  it('reminds the buyer once, then expires: the status card, the question and the App Home say so', async () => {
    if (!second) throw new Error('the second process runs the rest');
    const { driver, model } = first.sandbox;
    const shared = await driver.shareFile(buyer, CHANNEL.id, {
      name: 'waiting.xlsx',
      bytes: await sample('01-clean-baseline.xlsx'),
    });
    const ts = shared.ts;
    await settle();
    await settleReview(ts);
    const start = withButton(ts, ACTION.reviewStartNegotiation).at(-1);
    const startButton = start && buttonsIn(start).find((b) => b.actionId === ACTION.reviewStartNegotiation);
    if (!start || !startButton) throw new Error('no start button');
    await driver.clickButton(buyer, { channel: CHANNEL.id, ts: start.ts }, startButton.actionId, {
      value: startButton.value,
    });
    // The modal opens with a loading view at once; the start modal replaces it (same view id) once read.
    const modal = await first.sandbox.waitFor(
      () => model.openViews(buyer).find((view) => view.view.callback_id === CALLBACK.startModal),
      { what: 'the start modal' },
    );
    await driver.submitView(buyer, modal.id, {});
    await settle();

    const negotiation = await db.prisma.negotiation.findFirstOrThrow({
      where: { quotation: { slackThreadTs: ts } },
      include: { pendingQuestions: { where: { status: 'open' } } },
    });
    expect(negotiation.status).toBe('paused');
    const [question] = negotiation.pendingQuestions;
    if (!question || !negotiation.pausedAt) throw new Error('the negotiation waits for an answer');

    const homeText = async (probe: (text: string) => boolean) => {
      await driver.openHome(buyer);
      const home = await first.sandbox.waitFor(
        () => {
          const text = JSON.stringify(model.home(buyer)?.view ?? null);
          return probe(text) ? text : undefined;
        },
        { what: 'the Home tab', timeoutMs: 10_000 },
      );
      return home;
    };
    const before = await homeText((text) => text.includes('waiting.xlsx'));
    expect(before).toContain('*waiting.xlsx* asks:');
    expect(before).toContain('*waiting.xlsx*\\nWaiting for an answer');

    const contexts = createContextFactory({ prisma: db.prisma, env: secondEnv, llm: null });
    const options = (now: Date) => ({ prisma: db.prisma, contexts, now });
    const reminders = () => thread(ts).filter((m) => m.text.startsWith('Reminder:'));
    await remindUnansweredQuestions({
      ...options(new Date(question.askedAt.getTime() + 3 * HOUR_MS)),
      reminderAfterHours: 4,
    });
    await settle();
    expect(reminders()).toHaveLength(0);
    const firstReminder = new Date(question.askedAt.getTime() + 4 * HOUR_MS + MINUTE);
    await remindUnansweredQuestions({ ...options(firstReminder), reminderAfterHours: 4, expirePausedAfterDays: 7 });
    await remindUnansweredQuestions({ ...options(new Date(firstReminder.getTime() + HOUR_MS)), reminderAfterHours: 4 });
    await settle();
    // One reminder for each question waiting (they were asked together), each pinging the buyer, none twice.
    const open = negotiation.pendingQuestions.length;
    expect(reminders()).toHaveLength(open);
    for (const reminder of reminders()) expect(JSON.stringify(reminder.blocks)).toContain(`<@${buyer}>`);

    await expirePausedNegotiations({
      ...options(new Date(negotiation.pausedAt.getTime() + 7 * DAY_MS + MINUTE)),
      afterDays: 7,
    });
    await settle();
    expect((await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiation.id } })).status).toBe('expired');
    const card = thread(ts).find((m) => m.botId && /shared by/.test(JSON.stringify(m.blocks)));
    expect(JSON.stringify(card?.blocks)).toContain('Expired');
    expect(first.sandbox.renderThread(CHANNEL.id, ts)).toMatch(/has expired\. Nothing was ordered\./);
    expect(withButton(ts, ACTION.questionAnswer)).toHaveLength(0);
    expect(withButton(ts, ACTION.earlyTerminationFinish)).toHaveLength(0);
    // Off the active list, into the history, marked expired.
    const after = await homeText((text) => text.includes('waiting.xlsx · *Expired*'));
    expect(after).toContain('Your active negotiations (0)');
    expect(after).not.toContain('Waiting for an answer');

    // A choice made from a message left from before (a curveball strategy) is refused with the reason, not an error.
    const ctx = await contexts.forTeam(TEAM_ID);
    if (!ctx) throw new Error('the workspace is seeded');
    const late = await chooseCurveball(ctx, { negotiationId: negotiation.id, strategyId: 'single_source', by: buyer });
    expect(late).toMatchObject({ ok: false, error: 'conflict' });
    expect(late.ok ? '' : late.message).toBe(
      'This negotiation expired after waiting too long for an answer; nothing was changed.',
    );
    expect((await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiation.id } })).status).toBe('expired');

    // A later reminder run finds nothing to remind.
    await remindUnansweredQuestions({
      ...options(new Date(firstReminder.getTime() + 3 * DAY_MS)),
      reminderAfterHours: 4,
    });
    await settle();
    expect(reminders()).toHaveLength(open);
  }, 240_000);
});
