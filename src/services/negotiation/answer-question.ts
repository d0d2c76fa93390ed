// The buyer answers: a suggested-answer button or the early-termination choice (a reply in the thread goes through
// receive-thread-reply.ts, then here). One saved engine step with the thread's edits; the caller then resumes the
// run. Every answer or choice is audited in that step's transaction. Answering an answered question changes nothing.
import type { QuestionChoice } from '../../app-types.js';
import type { NegotiationStatus } from '../../generated/prisma/client.js';
import { type AuditEntry, writeAudit } from '../../db/audit.js';
import type { WorkspaceTx } from '../../db/scoped.js';
import { applyBuyerInput, engineQuestionId } from '../../db/stores/negotiation-store.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import { enqueueNegotiationEvents } from '../../thread/negotiation-events.js';
import { mayWorkOnQuotation } from '../workspace/workspace-settings.js';

/** Longest answer kept from a thread reply: it goes into later prompts as data. */
export const ANSWER_MAX = 1000;

export async function answerQuestion(
  ctx: ServiceContext,
  options: { questionId: string; by: string; choice: QuestionChoice },
): Promise<ServiceResult<{ negotiationId: string; resume: boolean }>> {
  const question = await ctx.db.pendingQuestion.findUnique({ where: { id: options.questionId } });
  if (!question) return refused('not_found', 'This question is not part of a negotiation.');
  const { negotiationId } = question;
  const gate = await gateNegotiation(ctx, negotiationId, options.by);
  if (!gate.ok) return gate;
  if (question.status !== 'open') return done({ negotiationId, resume: false }, false);
  const { choice } = options;
  if (choice.kind === 'early_termination') {
    if (question.kind !== 'early_termination') return refused('invalid_input', 'This question asks something else.');
    const result = await applyBuyerStep(ctx, negotiationId, {
      kind: 'early_termination',
      finish: choice.finish,
      by: options.by,
    });
    return result.ok ? done({ negotiationId, ...result.value }, result.changed) : result;
  }
  const suggested = Array.isArray(question.suggestedAnswers) ? question.suggestedAnswers : [];
  const text = suggested[choice.index];
  if (question.kind !== 'ask_info' || typeof text !== 'string') {
    return refused('invalid_input', 'That answer is not one of the suggestions.');
  }
  const input = { kind: 'answer' as const, questionId: engineQuestionId(question.id), answer: text, by: options.by };
  const result = await applyBuyerStep(ctx, negotiationId, input);
  return result.ok ? done({ negotiationId, ...result.value }, result.changed) : result;
}

const DECIDED = refused('conflict', 'This negotiation is already decided: the award stands as it is.');

/** The buyer picks a curveball strategy other than the recommended one (the thread's curveball message shows it). */
export async function chooseCurveball(
  ctx: ServiceContext,
  options: { negotiationId: string; strategyId: string; by: string },
): Promise<ServiceResult<{ resume: boolean }>> {
  const gate = await gateNegotiation(ctx, options.negotiationId, options.by);
  if (!gate.ok) return gate;
  if (gate.value.status === 'completed') return DECIDED;
  const result = await applyBuyerStep(ctx, options.negotiationId, {
    kind: 'curveball_strategy',
    strategyId: options.strategyId,
    by: options.by,
  });
  if (result.ok && !result.changed && (await isCompleted(ctx, options.negotiationId))) return DECIDED;
  return result;
}

/** The run's last step, saved while the click was being applied, completed it: the choice came too late. */
async function isCompleted(ctx: ServiceContext, negotiationId: string) {
  const negotiation = await ctx.db.negotiation.findUnique({ where: { id: negotiationId }, select: { status: true } });
  return negotiation?.status === 'completed';
}

/**
 * One buyer input as a saved engine step, with the thread's posts and edits for it; `alsoWrite` joins the step's
 * transaction (a thread reply's record: it stands or falls with the answer). Not changed: the engine had nothing to
 * apply (answered already).
 */
export async function applyBuyerStep(
  ctx: ServiceContext,
  negotiationId: string,
  input: Parameters<typeof applyBuyerInput>[2],
  alsoWrite?: (tx: WorkspaceTx) => Promise<unknown>,
): Promise<ServiceResult<{ resume: boolean }>> {
  const result = await applyBuyerInput(ctx.db, negotiationId, input, async (tx, events, state) => {
    await alsoWrite?.(tx);
    await writeAudit(tx, input.by, buyerInputAudit(negotiationId, input));
    await enqueueNegotiationEvents(tx, { negotiationId, events, state });
  });
  if (result.events.length === 0) return done({ resume: false }, false);
  return done({ resume: result.state.status === 'running' || result.state.status === 'completed' });
}

/** The audit entry of a buyer's answer or choice, written with the engine step that applies it. */
function buyerInputAudit(negotiationId: string, input: Parameters<typeof applyBuyerInput>[2]): AuditEntry {
  const base = { entityType: 'negotiation', entityId: negotiationId };
  if (input.kind === 'answer') {
    return {
      ...base,
      action: 'negotiation.question_answered',
      data: { questionId: input.questionId, answer: input.answer },
    };
  }
  if (input.kind === 'early_termination') {
    return { ...base, action: 'negotiation.early_termination_decided', data: { finish: input.finish } };
  }
  if (input.kind === 'supplier_turn') {
    // The supplier's own words and figures, as they were recorded: what the award and the PO stand on.
    const { supplierCode, turn } = input;
    return {
      ...base,
      action: 'negotiation.supplier_answered',
      data: { supplierCode, action: turn.action.type, text: turn.message_text, payload: turn.action.payload },
    };
  }
  if (input.kind === 'edit_brand_message') {
    return {
      ...base,
      action: 'negotiation.draft_edited',
      data: { supplierCode: input.supplierCode, sequence: input.sequence, text: input.text },
    };
  }
  if (input.kind === 'no_reply') {
    return { ...base, action: 'negotiation.supplier_round_closed', data: { supplierCode: input.supplierCode } };
  }
  return { ...base, action: 'negotiation.curveball_strategy_chosen', data: { strategyId: input.strategyId } };
}

async function gateNegotiation(ctx: ServiceContext, negotiationId: string, by: string) {
  const negotiation = await ctx.db.negotiation.findUnique({
    where: { id: negotiationId },
    select: { id: true, status: true, quotation: { select: { uploadedBySlackUserId: true } } },
  });
  if (!negotiation) return refused('not_found', 'This negotiation no longer exists.');
  const ended = ENDED[negotiation.status];
  if (ended) return refused('conflict', `This negotiation ${ended}; nothing was changed.`);
  const uploader = negotiation.quotation.uploadedBySlackUserId;
  if (!mayWorkOnQuotation(by, uploader, ctx.workspace.settings)) {
    return refused('not_allowed', `Only <@${uploader}>, who shared the quotation, and the approvers can answer.`);
  }
  return done(negotiation);
}

/**
 * A negotiation in these states takes no more answers or choices, and why, as the person is told. (A completed one
 * still takes a repeated answer, which changes nothing, as every repeated click does.)
 */
export const ENDED: Partial<Record<NegotiationStatus, string>> = {
  cancelled: 'was cancelled',
  expired: 'expired after waiting too long for an answer',
  failed: 'stopped on an error',
};
