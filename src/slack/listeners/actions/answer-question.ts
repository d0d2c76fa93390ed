// A suggested answer to a negotiation's question (one button per answer: `question_answer:<n>`).
import { answerCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function answerQuestion({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = answerCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.answerQuestion(at.teamId, {
      questionId: value.q,
      by: at.userId,
      choice: { kind: 'suggested', index: value.a },
    });
  });
}
