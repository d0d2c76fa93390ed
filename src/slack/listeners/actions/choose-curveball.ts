// One of the strategies offered when a supplier throws a curveball (one button each: `curveball_choose:<n>`).
import { curveballChoiceCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function chooseCurveball({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = curveballChoiceCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.chooseCurveballStrategy(at.teamId, { negotiationId: value.n, strategyId: value.s, by: at.userId });
  });
}
