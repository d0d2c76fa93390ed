// Finish now / Keep negotiating, when the agents think further rounds will not pay: the button says which.
import { ACTION, questionRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function earlyTermination({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = questionRefCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.answerQuestion(at.teamId, {
      questionId: value.q,
      by: at.userId,
      choice: { kind: 'early_termination', finish: action.action_id === ACTION.earlyTerminationFinish },
    });
  });
}
