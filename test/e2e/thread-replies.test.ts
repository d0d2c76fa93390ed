// Thread replies through the stand-in and the real Bolt receiver: a negotiation waits for the buyer in a real thread
// (driven by the offline agents, its questions posted by Parley's outbox); the buyer replies in the thread, and Slack
// re-delivers the same event with `x-slack-retry-num: 1` after the next question is asked — exactly one question is
// answered. With two questions open, the reply gets the which-question post; a colleague's click is refused, the
// buyer's answers the question picked with the reply's text and settles the post. And the whole story, every question
// answered by a reply.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION, actionIdPattern, whichQuestionCodec } from '../../src/slack/ids.js';
import { createJobsFixture } from '../support/jobs.js';

const running = useSandboxedParley();
const buyer = PEOPLE.buyer.id;

let fixture: Awaited<ReturnType<typeof createJobsFixture>> | undefined;

/** A thread in #sourcing whose negotiation waits for the buyer; seed 1 asks one question first, seed 7 two at once. */
async function waitingThread(seed: number, expectedOpen: number) {
  fixture ??= await createJobsFixture(running.db.prisma, TEAM_ID);
  const { driver } = running.parley.sandbox;
  const root = await driver.postMessage(buyer, CHANNEL.id, 'Ningbo’s quotation: negotiating in this thread');
  const place = { channelId: CHANNEL.id, threadTs: root.ts, buyer, statusCard: true };
  const { negotiationId } = await fixture.pausedNegotiation(seed, place);
  await running.parley.settle();
  const open = await openQuestions(negotiationId);
  expect(open).toHaveLength(expectedOpen);
  return { negotiationId, threadTs: root.ts, open };
}

const openQuestions = (negotiationId: string) =>
  running.db.prisma.pendingQuestion.findMany({
    where: { negotiationId, status: 'open' },
    orderBy: [{ askedAt: 'asc' }, { id: 'asc' }],
  });

function expectCleanCalls() {
  const { model } = running.parley.sandbox;
  expect(model.calls.filter((call) => !call.ok)).toEqual([]);
  expect(model.calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
}

describe('thread replies, end to end', () => {
  it('answers one question with a reply, and Slack’s retry of the same event answers nothing else', async () => {
    const { negotiationId, threadTs, open } = await waitingThread(1, 1);
    const { driver } = running.parley.sandbox;
    const [q1] = open;

    const sent = await driver.replyInThread(buyer, CHANNEL.id, threadTs, 'Yes, split the order');
    expect(sent.response.status).toBe(200);
    await running.parley.settle();
    expect(await running.db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: q1?.id } })).toMatchObject({
      status: 'answered',
      answer: 'Yes, split the order',
      answeredBySlackUserId: buyer,
    });
    // Parley resumed the negotiation, which asked its next question.
    const [q2] = await openQuestions(negotiationId);
    expect(q2).toBeDefined();

    const retried = await driver.retry(sent.response, { retryNum: 1, retryReason: 'http_timeout' });
    expect(retried.status).toBe(200);
    await running.parley.settle();
    expect(await running.db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: q2?.id } })).toMatchObject({
      status: 'open',
      answer: null,
    });
    expect(await running.db.prisma.threadReply.count({ where: { messageTs: sent.ts } })).toBe(1);
    const answered = await running.db.prisma.pendingQuestion.count({ where: { negotiationId, status: 'answered' } });
    expect(answered).toBe(1);
    expectCleanCalls();
  }, 120_000);

  it('asks which question when two are open; only the author’s click answers, with the reply', async () => {
    const { negotiationId, threadTs, open } = await waitingThread(7, 2);
    const { driver, model } = running.parley.sandbox;
    const [q1, q2] = open;

    const reply = await driver.replyInThread(buyer, CHANNEL.id, threadTs, '<!channel> 45 days works for us');
    await running.parley.settle();
    expect(await openQuestions(negotiationId)).toEqual(open);
    const post = model
      .thread(CHANNEL.id, threadTs)
      .find((m) => buttonsIn(m).some((b) => b.actionId === ACTION.whichQuestionNone));
    if (!post) throw new Error('Parley did not ask which question the reply answers');
    expect(post.text).toContain(`<@${buyer}>`);
    expect(JSON.stringify(post.blocks)).toContain('&lt;!channel&gt; 45 days works for us');
    const choices = buttonsIn(post).filter((b) => actionIdPattern(ACTION.whichQuestion).test(b.actionId));
    expect(choices.map((b) => whichQuestionCodec.decode(b.value)?.q)).toEqual([q1?.id, q2?.id]);
    const second = choices[1];
    if (!second) throw new Error('a button per open question');

    // A colleague's click is refused privately; nothing is answered.
    const colleague = PEOPLE.colleague.id;
    await driver.clickButton(colleague, { channel: CHANNEL.id, ts: post.ts }, second.actionId, {
      value: second.value,
    });
    await running.parley.settle();
    expect(model.ephemerals(colleague).map((e) => e.text)).toEqual([expect.stringContaining('who wrote the reply')]);
    expect(await openQuestions(negotiationId)).toEqual(open);

    await driver.clickButton(buyer, { channel: CHANNEL.id, ts: post.ts }, second.actionId, { value: second.value });
    await running.parley.settle();
    expect(await running.db.prisma.pendingQuestion.findUniqueOrThrow({ where: { id: q2?.id } })).toMatchObject({
      status: 'answered',
      answer: '<!channel> 45 days works for us',
      answeredBySlackUserId: buyer,
    });
    const settled = model.message(CHANNEL.id, post.ts);
    expect(settled && buttonsIn(settled)).toEqual([]);
    expect(JSON.stringify(settled?.blocks)).toContain('Taken as the answer');
    expect(await running.db.prisma.threadReply.findFirst({ where: { messageTs: reply.ts } })).toMatchObject({
      outcome: 'answered',
      questionId: q2?.id,
    });
    expectCleanCalls();
  }, 120_000);

  it('plays the story answering every question by a reply in the thread', async () => {
    const bytes = await readFile(new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url));
    const story = await playStory(running.parley, {
      file: { name: 'reply-quote.xlsx', bytes },
      answerBy: 'reply',
      stopBeforeApproval: true,
    });
    const negotiation = await running.db.prisma.negotiation.findFirstOrThrow({
      where: { quotation: { slackThreadTs: story.threadTs } },
      include: { pendingQuestions: true, threadReplies: true },
    });
    expect(negotiation.status).toBe('completed');
    const asked = negotiation.pendingQuestions.filter((q) => q.kind === 'ask_info');
    expect(asked.length).toBeGreaterThan(0);
    // Every question was answered by a reply (directly, or through the which-question buttons), each reply once.
    const answeredByReply = negotiation.threadReplies.filter((r) => r.outcome === 'answered').map((r) => r.questionId);
    expect(new Set(answeredByReply).size).toBe(answeredByReply.length);
    for (const question of asked) expect(answeredByReply).toContain(question.id);
    expectCleanCalls();
  }, 180_000);
});
