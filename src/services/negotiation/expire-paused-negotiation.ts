// A negotiation that has waited for the buyer longer than EXPIRE_PAUSED_AFTER_DAYS expires: its status becomes
// `expired` and its open questions `expired`, in one transaction with what the thread shows (src/thread/expiry.ts)
// and an audit row. The App Home lists neither afterwards (it shows active negotiations and open questions only). The
// status change is conditional on the row still being paused at the checkpoint the caller saw, so an answer that
// lands at the same moment wins, and a second instance finds nothing to do; once expired, no engine step is saved
// (negotiation-store.ts).
import { writeAudit } from '../../db/audit.js';
import { engineQuestionId } from '../../db/stores/negotiation-store.js';
import { DAY_MS } from '../../time.js';
import { enqueueNegotiationExpired } from '../../thread/expiry.js';
import type { ServiceContext } from '../service-context.js';

/** When a negotiation paused at `pausedAt` expires. */
export function pausedExpiresAt(pausedAt: Date, afterDays: number): Date {
  return new Date(pausedAt.getTime() + afterDays * DAY_MS);
}

export interface ExpirePausedNegotiationOptions {
  /** The negotiation as the caller found it due. */
  negotiation: {
    id: string;
    checkpointVersion: number;
    pausedAt: Date | null;
    /** Counts as the pause for a row paused before `pausedAt` was recorded. */
    updatedAt: Date;
  };
  /** The time of the expiry (the run's). */
  now: Date;
}

/** `moved_on`: no longer paused at that checkpoint (an answer, another instance) — nothing was changed. */
export type ExpirePausedNegotiationOutcome = { kind: 'expired'; questionsClosed: number } | { kind: 'moved_on' };

export async function expirePausedNegotiation(
  ctx: Pick<ServiceContext, 'db' | 'workspace'>,
  options: ExpirePausedNegotiationOptions,
): Promise<ExpirePausedNegotiationOutcome> {
  const { negotiation, now } = options;
  const waitedDays = Math.floor((now.getTime() - (negotiation.pausedAt ?? negotiation.updatedAt).getTime()) / DAY_MS);
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.negotiation.updateMany({
      where: { id: negotiation.id, status: 'paused', checkpointVersion: negotiation.checkpointVersion },
      data: { status: 'expired', leaseOwner: null, leaseExpiresAt: null },
    });
    if (count === 0) return { kind: 'moved_on' } as const;
    const open = await tx.pendingQuestion.findMany({
      where: { negotiationId: negotiation.id, status: 'open' },
      orderBy: { askedAt: 'asc' },
      select: {
        id: true,
        kind: true,
        question: true,
        negotiationSupplier: { select: { supplier: { select: { name: true } } } },
      },
    });
    await tx.pendingQuestion.updateMany({
      where: { negotiationId: negotiation.id, status: 'open' },
      data: { status: 'expired' },
    });
    await enqueueNegotiationExpired(tx, {
      negotiationId: negotiation.id,
      waitedDays,
      closedQuestions: open.map((question) => ({
        engineQuestionId: engineQuestionId(question.id),
        kind: question.kind,
        askedBySupplier: question.negotiationSupplier?.supplier.name ?? null,
        question: question.question,
      })),
    });
    await writeAudit(tx, null, {
      action: 'negotiation.expired',
      entityType: 'Negotiation',
      entityId: negotiation.id,
      data: { waitedDays, questionsClosed: open.length },
    });
    return { kind: 'expired', questionsClosed: open.length } as const;
  });
}
