// 👍 / 👎 on a recommendation (its feedback buttons), stored with the negotiation for the outcomes benchmark's later
// use. Anyone who can see the thread may rate it; each person has one rating per negotiation: the same click again
// changes nothing, the other side replaces it. Every change is audited in the same transaction.
import { writeAudit } from '../../db/audit.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';

export type RecommendationRating = 'positive' | 'negative';

export interface RateRecommendationOptions {
  negotiationId: string;
  rating: RecommendationRating;
  by: string;
}

export async function rateRecommendation(
  ctx: ServiceContext,
  options: RateRecommendationOptions,
): Promise<ServiceResult> {
  const { negotiationId, rating, by } = options;
  const negotiation = await ctx.db.negotiation.findUnique({ where: { id: negotiationId }, select: { id: true } });
  if (!negotiation) return refused('not_found', 'This negotiation no longer exists.');
  return ctx.db.$transaction(async (tx) => {
    const key = { workspaceId: tx.$workspaceId, negotiationId, slackUserId: by };
    const before = await tx.recommendationFeedback.findUnique({
      where: { workspaceId_negotiationId_slackUserId: key },
      select: { rating: true },
    });
    if (before?.rating === rating) return done(undefined, false);
    await tx.recommendationFeedback.upsert({
      where: { workspaceId_negotiationId_slackUserId: key },
      create: { ...key, rating },
      update: { rating },
    });
    await writeAudit(tx, by, {
      action: 'recommendation.feedback',
      entityType: 'Negotiation',
      entityId: negotiationId,
      data: { rating, previous: before?.rating ?? null },
    });
    return done(undefined);
  });
}
