// A buyer who does not wait for the round to settle: the moment the curveball's strategies or a question's suggested
// answers appear in the thread, they click (a strategy other than the recommended one, the first suggested answer),
// while the engine is still taking its steps. With two instances each click may land on the one not running the
// negotiation, so the click's save and the engine's step meet over the same checkpoint (issue 15, defect 3).
// The scripted story (play-story.ts) goes on beside it and answers whatever this buyer has not; an answer clicked by
// both is one answer (answering an answered question changes nothing).
import { ACTION, answerCodec, curveballChoiceCodec } from '../../src/slack/ids.js';
import type { DriverResponse } from '../slack-stand-in/driver.js';
import type { SlackSandbox } from '../slack-stand-in/index.js';
import { buttonsIn } from '../slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../slack-stand-in/sandboxed-parley.js';
import { sleep } from './parley-process.js';

export interface MidRoundClicks {
  /** The strategy clicked (null: no curveball offered a choice), its title as the button showed it. */
  curveball: { negotiationId: string; strategyId: string; title: string; acknowledged: boolean } | null;
  /** Questions answered by a click as soon as they appeared: the pending question's id and the answer's text. */
  answers: { questionId: string; answer: string; acknowledged: boolean }[];
}

const RECOMMENDED_SUFFIX = ' (recommended)';
const LOOK_EVERY_MS = 25;
/** A click answered with no 2xx (the instance was busy or failing) is clicked again, as a person would. */
const CLICK_ATTEMPTS = 3;

const acknowledged = (response: DriverResponse) => response.status >= 200 && response.status < 300;

/** Starts watching the stand-in's #sourcing; `stop()` ends the watch and says what was clicked. */
export function startMidRoundBuyer(sandbox: SlackSandbox): { stop(): Promise<MidRoundClicks> } {
  const clicks: MidRoundClicks = { curveball: null, answers: [] };
  const answered = new Set<string>();
  let stopped = false;
  const click = async (ts: string, actionId: string, value: string | undefined) => {
    for (let attempt = 1; ; attempt++) {
      const response = await sandbox.driver.clickButton(PEOPLE.buyer.id, { channel: CHANNEL.id, ts }, actionId, {
        value,
      });
      if (acknowledged(response) || attempt >= CLICK_ATTEMPTS) return acknowledged(response);
      await sleep(500);
    }
  };
  const watch = (async () => {
    while (!stopped) {
      for (const message of sandbox.model.messages(CHANNEL.id)) {
        for (const button of buttonsIn(message)) {
          if (clicks.curveball === null && button.actionId.startsWith(`${ACTION.curveballChoose}:`)) {
            const choice = curveballChoiceCodec.decode(button.value);
            if (!choice || button.text.endsWith(RECOMMENDED_SUFFIX)) continue;
            const chosen = { negotiationId: choice.n, strategyId: choice.s, title: button.text, acknowledged: false };
            clicks.curveball = chosen;
            chosen.acknowledged = await click(message.ts, button.actionId, button.value);
          }
          if (button.actionId.startsWith(`${ACTION.questionAnswer}:`) || button.actionId === ACTION.questionAnswer) {
            const answer = answerCodec.decode(button.value);
            if (!answer || answer.a !== 0 || answered.has(answer.q)) continue;
            answered.add(answer.q);
            const record = { questionId: answer.q, answer: button.text, acknowledged: false };
            clicks.answers.push(record);
            record.acknowledged = await click(message.ts, button.actionId, button.value);
          }
        }
      }
      await sleep(LOOK_EVERY_MS);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await watch;
      return clicks;
    },
  };
}
