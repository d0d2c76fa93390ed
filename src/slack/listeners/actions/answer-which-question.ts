// A click on the post asking which open question a thread reply answers: one button per question
// (`which_question:<n>`) and None of these. The value names the reply and the question; the service checks the rest.
import { whichQuestionCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { onClick, valueOf } from './click.js';

export function answerWhichQuestion({ parley }: SlackDeps) {
  return onClick(async ({ action }, at) => {
    const value = whichQuestionCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.answerWhichQuestion(at.teamId, { replyId: value.r, questionId: value.q, by: at.userId });
  });
}
