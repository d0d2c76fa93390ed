// A thread reply that could answer several open questions, in the thread: the post asking which one it answers (its
// buttons carry the reply's row id and each question's), and that post settled once its author chose. Each is read
// from the database in the transaction that records the reply or the choice, under a key naming the reply, so a
// replayed change enqueues nothing twice.
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCall } from '../outbox/index.js';
import { buildWhichQuestion, buildWhichQuestionSettled } from '../slack/views/index.js';
import { askerName, edit, message, negKey, negotiationThread } from './thread.js';

export const whichQuestionKey = (negotiationId: string, replyId: string) =>
  negKey(negotiationId, `reply:${replyId}:which`);

const questionShown = {
  id: true,
  question: true,
  negotiationSupplier: { select: { supplier: { select: { name: true } } } },
} as const;

type QuestionShown = { question: string; negotiationSupplier: { supplier: { name: string } } | null };

const askedBy = (question: QuestionShown) => askerName(question.negotiationSupplier?.supplier.name);

/** Asks the reply's author which of `questionIds` (pending questions' row ids) their reply answers. */
export async function enqueueWhichQuestion(tx: WorkspaceTx, input: { replyId: string; questionIds: string[] }) {
  const reply = await tx.threadReply.findUniqueOrThrow({ where: { id: input.replyId } });
  const questions = await tx.pendingQuestion.findMany({
    where: { id: { in: input.questionIds } },
    orderBy: [{ askedAt: 'asc' }, { id: 'asc' }],
    select: questionShown,
  });
  const { thread } = await negotiationThread(tx, reply.negotiationId);
  const body = buildWhichQuestion({
    replyId: reply.id,
    authorId: reply.userId,
    reply: reply.text,
    questions: questions.map((q) => ({ questionId: q.id, askedBy: askedBy(q), question: q.question })),
  });
  await enqueueSlackCall(tx, message(thread, whichQuestionKey(reply.negotiationId, reply.id), body));
}

/** The which-question post without its buttons, saying what the reply became (an answer to its question, or none). */
export async function enqueueWhichQuestionSettled(tx: WorkspaceTx, input: { replyId: string }) {
  const reply = await tx.threadReply.findUniqueOrThrow({
    where: { id: input.replyId },
    include: { question: { select: questionShown } },
  });
  const { thread } = await negotiationThread(tx, reply.negotiationId);
  const body = buildWhichQuestionSettled({
    authorId: reply.userId,
    reply: reply.text,
    chosen: reply.question ? { askedBy: askedBy(reply.question), question: reply.question.question } : null,
  });
  const posted = whichQuestionKey(reply.negotiationId, reply.id);
  await enqueueSlackCall(tx, edit(thread, `${posted}:settled`, posted, body));
}
