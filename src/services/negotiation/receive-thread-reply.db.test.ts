// Thread replies on a real database (PGlite, or PostgreSQL with DATABASE_URL), with negotiations driven by the offline
// agents until they wait for the buyer: a reply is recorded once per Slack message (a re-delivery answers nothing
// new, even when the next question is open by then), counts only from the person asked and only when exactly one
// question is open to them; with several, Parley posts which-question buttons, and the author's click answers that
// question with the stored reply — once, and never a question answered meanwhile. The record and the answer stand or
// fall together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPROVERS, BUYER, CHANNEL_ID, createJobsFixture, offlineAgents } from '../../../test/support/jobs.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { runNegotiation } from '../../db/stores/negotiation-store.js';
import { readStoredPayload } from '../../outbox/outbox-call.js';
import { ACTION, whichQuestionCodec } from '../../slack/ids.js';
import { enqueueNegotiationEvents } from '../../thread/negotiation-events.js';
import { whichQuestionKey } from '../../thread/thread-replies.js';
import { questionKey } from '../../thread/thread.js';
import type { ServiceContext } from '../service-context.js';
import { answerQuestion } from './answer-question.js';
import { answerWhichQuestion } from './answer-which-question.js';
import { receiveThreadReply } from './receive-thread-reply.js';

let db: TestDatabase;
let fixture: Awaited<ReturnType<typeof createJobsFixture>>;
let ctx: ServiceContext;
let nextSeed = 1;
let nextTs = 1;

beforeAll(async () => {
  db = await createTestDatabase();
  fixture = await createJobsFixture(db.prisma, 'T0REPLIES1');
  const context = await fixture.contexts.forWorkspace(fixture.workspaceId);
  if (!context) throw new Error('the fixture seeds the workspace');
  ctx = context;
}, 60_000);
afterAll(async () => {
  await db?.destroy();
});

const openQuestions = (negotiationId: string) =>
  db.prisma.pendingQuestion.findMany({
    where: { negotiationId, status: 'open' },
    orderBy: [{ askedAt: 'asc' }, { id: 'asc' }],
  });

/** A negotiation waiting for the buyer with exactly `count` questions open (the offline agents, seed by seed). */
async function waitingWith(count: number) {
  for (let guard = 0; guard < 40; guard++) {
    const { negotiationId } = await fixture.pausedNegotiation(nextSeed);
    nextSeed += 1;
    const open = await openQuestions(negotiationId);
    if (open.length !== count || open.some((q) => q.kind !== 'ask_info')) continue;
    const { quotation } = await db.prisma.negotiation.findUniqueOrThrow({
      where: { id: negotiationId },
      select: { quotation: { select: { slackThreadTs: true } } },
    });
    if (!quotation.slackThreadTs) throw new Error('the fixture threads every quotation');
    return { negotiationId, open, threadTs: quotation.slackThreadTs };
  }
  throw new Error(`no negotiation with ${count} open questions`);
}

/** A Slack message in the thread: its ts is its identity, the same on every delivery. */
function message(threadTs: string, text: string, by: string = BUYER) {
  nextTs += 1;
  const messageTs = `1800000000.${String(nextTs).padStart(6, '0')}`;
  return { channelId: CHANNEL_ID, threadTs, messageTs, clientMsgId: `client-${nextTs}`, text, by, byTeamId: null };
}

const repliesTo = (messageTs: string) => db.prisma.threadReply.findMany({ where: { messageTs } });
const outboxRows = (prefix: string) =>
  db.prisma.slackOutbox.findMany({ where: { dedupeKey: { startsWith: prefix } }, orderBy: { createdAt: 'asc' } });

describe('receiveThreadReply', () => {
  it('answers the one open question with the buyer’s reply; a re-delivery answers nothing new', async () => {
    const { negotiationId, open, threadTs } = await waitingWith(1);
    const [q1] = open;
    if (!q1) throw new Error('one question is open');
    const reply = message(threadTs, '  Yes, split the order  ');

    const first = await receiveThreadReply(ctx, reply);
    expect(first).toMatchObject({
      ok: true,
      changed: true,
      negotiationId,
      value: { outcome: 'answered', resume: true },
    });
    const answered = await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: q1.id } });
    expect(answered).toMatchObject({
      status: 'answered',
      answer: 'Yes, split the order',
      answeredBySlackUserId: BUYER,
    });
    expect(await repliesTo(reply.messageTs)).toEqual([
      expect.objectContaining({
        outcome: 'answered',
        questionId: q1.id,
        clientMsgId: reply.clientMsgId,
        userId: BUYER,
        text: 'Yes, split the order',
      }),
    ]);
    const engineId = q1.id.slice(q1.id.indexOf('_') + 1);
    expect(await outboxRows(`${questionKey(negotiationId, engineId)}:answered`)).toHaveLength(1);

    // The run goes on and asks the next question; then Slack re-delivers the reply (it saw no ack in time).
    await runNegotiation(fixture.ws, negotiationId, offlineAgents, 'test', (tx, events, state) =>
      enqueueNegotiationEvents(tx, { negotiationId, events, state }),
    );
    const [q2] = await openQuestions(negotiationId);
    if (!q2) throw new Error('seed 1 asks a second question after the first is answered');

    const again = await receiveThreadReply(ctx, reply);
    expect(again).toMatchObject({ ok: true, changed: false, value: { outcome: 'answered', resume: false } });
    expect(await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: q2.id } })).toMatchObject({
      status: 'open',
      answer: null,
    });
    expect(await repliesTo(reply.messageTs)).toHaveLength(1);
  });

  it('records and ignores a reply from anyone the questions are not addressed to', async () => {
    const { negotiationId, open, threadTs } = await waitingWith(1);
    const reply = message(threadTs, 'Net 60, please', APPROVERS[0]);
    const result = await receiveThreadReply(ctx, reply);
    expect(result).toMatchObject({ ok: false, error: 'not_allowed', negotiationId });
    expect(await repliesTo(reply.messageTs)).toEqual([expect.objectContaining({ outcome: 'not_addressed' })]);
    expect(await receiveThreadReply(ctx, reply)).toMatchObject({ ok: false, error: 'not_allowed' });
    expect(await repliesTo(reply.messageTs)).toHaveLength(1);
    expect(await openQuestions(negotiationId)).toEqual(open);
  });

  it('asks the person who started the negotiation, who may not be the one who shared the file', async () => {
    const { negotiationId, open, threadTs } = await waitingWith(1);
    await db.prisma.negotiation.update({ where: { id: negotiationId }, data: { startedBySlackUserId: APPROVERS[1] } });
    expect(await receiveThreadReply(ctx, message(threadTs, 'Yes', BUYER))).toMatchObject({ ok: false });
    expect(await openQuestions(negotiationId)).toEqual(open);
    const byStarter = await receiveThreadReply(ctx, message(threadTs, 'Yes', APPROVERS[1]));
    expect(byStarter).toMatchObject({ ok: true, value: { outcome: 'answered' } });
    expect(await openQuestions(negotiationId)).toEqual([]);
  });

  it('answers nothing with an empty reply, or in a thread without a negotiation', async () => {
    const { negotiationId, open, threadTs } = await waitingWith(1);
    const blank = message(threadTs, ' \n ');
    expect(await receiveThreadReply(ctx, blank)).toMatchObject({ ok: true, value: { outcome: 'nothing_open' } });
    expect(await openQuestions(negotiationId)).toEqual(open);
    expect(await receiveThreadReply(ctx, message('1699999999.000001', 'Yes'))).toBeNull();
  });

  it('asks which question when two are open to the author, once per message, quoting the reply escaped', async () => {
    const { negotiationId, open, threadTs } = await waitingWith(2);
    const reply = message(threadTs, '<!channel> Yes, split the order');

    const result = await receiveThreadReply(ctx, reply);
    expect(result).toMatchObject({ ok: true, negotiationId, value: { outcome: 'asked_which', resume: false } });
    expect(await openQuestions(negotiationId)).toEqual(open);
    const [row] = await repliesTo(reply.messageTs);
    if (!row) throw new Error('the reply is recorded');
    expect(row).toMatchObject({ outcome: 'asked_which', questionId: null });

    const posts = await outboxRows(whichQuestionKey(negotiationId, row.id));
    expect(posts).toHaveLength(1);
    const { args } = readStoredPayload(posts[0]?.payload);
    const text = JSON.stringify(args);
    expect(text).toContain('&lt;!channel&gt; Yes, split the order');
    expect(text).not.toContain('<!channel>');
    expect(text).toContain(`<@${BUYER}>`);
    const blocks = args.blocks as { type: string; elements?: { action_id?: string; value?: string }[] }[];
    const buttons = blocks.flatMap((block) => (block.type === 'actions' ? (block.elements ?? []) : []));
    expect(buttons.map((b) => whichQuestionCodec.decode(b.value))).toEqual([
      ...open.map((q) => ({ r: row.id, q: q.id })),
      { r: row.id, q: null },
    ]);
    expect(buttons.at(-1)?.action_id).toBe(ACTION.whichQuestionNone);

    await receiveThreadReply(ctx, reply);
    expect(await outboxRows(whichQuestionKey(negotiationId, row.id))).toHaveLength(1);
    expect(await repliesTo(reply.messageTs)).toHaveLength(1);
  });

  it('keeps the record and the answer together: a reply whose record fails answers nothing', async () => {
    const { negotiationId, open, threadTs } = await waitingWith(1);
    const reply = message(threadTs, 'Yes');
    // The row is there already (another instance's delivery committed it), but this one's lookup missed it: its
    // insert hits the unique key, and the answer's step rolls back with it.
    await db.prisma.threadReply.create({
      data: {
        workspaceId: fixture.workspaceId,
        negotiationId,
        channelId: reply.channelId,
        threadTs,
        messageTs: reply.messageTs,
        userId: BUYER,
        text: 'Yes',
        outcome: 'nothing_open',
      },
    });
    const blind = new Proxy(ctx.db, {
      get(target, property) {
        if (property === 'threadReply') return { findFirst: async () => null };
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(receiveThreadReply({ ...ctx, db: blind }, reply)).rejects.toMatchObject({ code: 'P2002' });
    expect(await openQuestions(negotiationId)).toEqual(open);
    const { checkpointVersion } = await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } });
    expect(await receiveThreadReply(ctx, reply)).toMatchObject({ ok: true, value: { outcome: 'nothing_open' } });
    expect((await db.prisma.negotiation.findUniqueOrThrow({ where: { id: negotiationId } })).checkpointVersion).toBe(
      checkpointVersion,
    );
  });

  it('answers once when the same message arrives twice at the same time', async () => {
    const { negotiationId, open, threadTs } = await waitingWith(1);
    const reply = message(threadTs, 'Yes, split the order');
    const results = await Promise.all([receiveThreadReply(ctx, reply), receiveThreadReply(ctx, reply)]);
    expect(results.map((r) => r?.ok && r.value.outcome)).toEqual(['answered', 'answered']);
    expect(results.filter((r) => r?.ok && r.changed)).toHaveLength(1);
    expect(await repliesTo(reply.messageTs)).toHaveLength(1);
    const answered = await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: open[0]?.id } });
    expect(answered.status).toBe('answered');
    expect(await openQuestions(negotiationId)).toEqual([]);
  });
});

describe('answerWhichQuestion', () => {
  async function askedWhich(text = 'Yes, split the order') {
    const waiting = await waitingWith(2);
    const reply = message(waiting.threadTs, text);
    await receiveThreadReply(ctx, reply);
    const [row] = await repliesTo(reply.messageTs);
    if (!row) throw new Error('the reply is recorded');
    const [q1, q2] = waiting.open;
    if (!q1 || !q2) throw new Error('two questions are open');
    return { ...waiting, replyId: row.id, q1, q2 };
  }

  it('answers the chosen question with the stored reply, only for its author, once', async () => {
    const { negotiationId, replyId, q1, q2 } = await askedWhich();
    expect(await answerWhichQuestion(ctx, { replyId, questionId: q2.id, by: APPROVERS[0] })).toMatchObject({
      ok: false,
      error: 'not_allowed',
    });
    expect(await openQuestions(negotiationId)).toHaveLength(2);

    const chosen = await answerWhichQuestion(ctx, { replyId, questionId: q2.id, by: BUYER });
    expect(chosen).toMatchObject({ ok: true, changed: true, value: { negotiationId } });
    expect(await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: q2.id } })).toMatchObject({
      status: 'answered',
      answer: 'Yes, split the order',
      answeredBySlackUserId: BUYER,
    });
    expect((await openQuestions(negotiationId)).map((q) => q.id)).toEqual([q1.id]);
    expect(await db.prisma.threadReply.findUniqueOrThrow({ where: { id: replyId } })).toMatchObject({
      outcome: 'answered',
      questionId: q2.id,
    });
    const settled = await outboxRows(`${whichQuestionKey(negotiationId, replyId)}:settled`);
    expect(settled).toHaveLength(1);
    expect(settled[0]?.method).toBe('chat.update');

    // The same click again changes nothing; another question, or none, is refused.
    expect(await answerWhichQuestion(ctx, { replyId, questionId: q2.id, by: BUYER })).toMatchObject({
      ok: true,
      changed: false,
    });
    for (const questionId of [q1.id, null]) {
      expect(await answerWhichQuestion(ctx, { replyId, questionId, by: BUYER })).toMatchObject({
        ok: false,
        error: 'conflict',
      });
    }
    expect((await openQuestions(negotiationId)).map((q) => q.id)).toEqual([q1.id]);
    expect(await outboxRows(`${whichQuestionKey(negotiationId, replyId)}:settled`)).toHaveLength(1);
  });

  it('takes None of these: nothing is answered, the post is settled', async () => {
    const { negotiationId, open, replyId, q1 } = await askedWhich('thanks');
    expect(await answerWhichQuestion(ctx, { replyId, questionId: null, by: BUYER })).toMatchObject({
      ok: true,
      changed: true,
    });
    expect(await openQuestions(negotiationId)).toEqual(open);
    expect(await db.prisma.threadReply.findUniqueOrThrow({ where: { id: replyId } })).toMatchObject({
      outcome: 'answers_none',
    });
    expect(await outboxRows(`${whichQuestionKey(negotiationId, replyId)}:settled`)).toHaveLength(1);
    expect(await answerWhichQuestion(ctx, { replyId, questionId: null, by: BUYER })).toMatchObject({
      ok: true,
      changed: false,
    });
    expect(await answerWhichQuestion(ctx, { replyId, questionId: q1.id, by: BUYER })).toMatchObject({
      ok: false,
      error: 'conflict',
    });
  });

  it('refuses a question answered meanwhile, and still takes another one', async () => {
    const { negotiationId, replyId, q1, q2 } = await askedWhich();
    const suggested = await answerQuestion(ctx, {
      questionId: q1.id,
      by: BUYER,
      choice: { kind: 'suggested', index: 0 },
    });
    expect(suggested).toMatchObject({ ok: true, changed: true });
    const late = await answerWhichQuestion(ctx, { replyId, questionId: q1.id, by: BUYER });
    expect(late).toMatchObject({
      ok: false,
      error: 'conflict',
      message: expect.stringContaining('answered meanwhile'),
    });
    expect(await db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: q1.id } })).not.toMatchObject({
      answer: 'Yes, split the order',
    });
    expect(await db.prisma.threadReply.findUniqueOrThrow({ where: { id: replyId } })).toMatchObject({
      outcome: 'asked_which',
    });
    expect(await answerWhichQuestion(ctx, { replyId, questionId: q2.id, by: BUYER })).toMatchObject({ ok: true });
    expect(await openQuestions(negotiationId)).toEqual([]);
  });

  it('answers once when the author double-clicks two questions at the same time', async () => {
    const { negotiationId, replyId, q1, q2 } = await askedWhich();
    const results = await Promise.all([
      answerWhichQuestion(ctx, { replyId, questionId: q1.id, by: BUYER }),
      answerWhichQuestion(ctx, { replyId, questionId: q2.id, by: BUYER }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.error === 'conflict')).toHaveLength(1);
    expect(await openQuestions(negotiationId)).toHaveLength(1);
    expect(await outboxRows(`${whichQuestionKey(negotiationId, replyId)}:settled`)).toHaveLength(1);
  });

  it('refuses a question of another thread, and a reply it does not know', async () => {
    const { replyId } = await askedWhich();
    const other = await waitingWith(1);
    expect(await answerWhichQuestion(ctx, { replyId, questionId: other.open[0]?.id ?? '', by: BUYER })).toMatchObject({
      ok: false,
      error: 'not_found',
    });
    expect(await openQuestions(other.negotiationId)).toEqual(other.open);
    expect(
      await answerWhichQuestion(ctx, { replyId: 'clnotareply00000000000001', questionId: null, by: BUYER }),
    ).toMatchObject({ ok: false, error: 'not_found' });
  });
});
