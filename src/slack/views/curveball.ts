// The curveball: a supplier can suddenly fill only part of the order. The message says what happened and what it
// does to the deal, and offers 2–3 strategies (with their allocations) as buttons; after the choice it shows which
// one was taken and by whom (or that the default applied when nobody chose in time).
import type { ActionsBlockElement, KnownBlock } from '@slack/types';
import { ACTION, BLOCK, curveballChoiceCodec, indexedActionId } from '../ids.js';
import { type SlackMessage, actions, button, context, header, percent, section, who } from './blocks.js';
import { escapeTruncate, inline } from './escape.js';

export interface CurveballStrategy {
  id: string;
  title: string;
  detail: string;
  /** Who gets what share of the order under this strategy. */
  allocation: { supplierName: string; share: number }[];
  recommended: boolean;
}

export interface CurveballModel {
  negotiationId: string;
  supplierName: string;
  /** 0–1: the most the supplier can now fill. */
  capacityShare: number;
  afterRound: number;
  /** What it does to the deal (words from the decision maker, or code's). */
  impact: string;
  strategies: CurveballStrategy[];
  /** Set once a strategy is chosen; `by` null = nobody chose in time and the recommended default applied. */
  chosen?: { strategyId: string; by: string | null } | null;
}

const MAX_STRATEGIES = 3;

function allocationText(allocation: CurveballStrategy['allocation']): string {
  if (allocation.length === 0) return '';
  return allocation
    .slice(0, 6)
    .map((a) => `${inline(a.supplierName, 40)} ${percent(a.share)}`)
    .join(' / ');
}

function strategyLine(s: CurveballStrategy, chosen: boolean): string {
  const marks =
    `${chosen ? ':white_check_mark: ' : ''}*${inline(s.title, 100)}*` + (s.recommended ? ' _(recommended)_' : '');
  const alloc = allocationText(s.allocation);
  return `${marks}${alloc ? ` — ${alloc}` : ''}\n${inline(s.detail, 600)}`;
}

export function buildCurveball(model: CurveballModel): SlackMessage {
  const name = inline(model.supplierName, 80);
  const strategies = model.strategies.slice(0, MAX_STRATEGIES);
  const chosen = model.chosen ? (strategies.find((s) => s.id === model.chosen?.strategyId) ?? null) : null;
  const happened = `${name} can now fill only ${percent(model.capacityShare)} of the order.`;

  const blocks: KnownBlock[] = [
    header(`Curveball after round ${model.afterRound}`),
    section(`:warning: *${happened}*\n${escapeTruncate(model.impact.trim(), 1500)}`),
  ];

  if (model.chosen) {
    const taken = chosen ? strategyLine(chosen, true) : '_A strategy was chosen._';
    blocks.push(section(taken));
    blocks.push(
      context([
        model.chosen.by
          ? `Chosen by ${who(model.chosen.by)}`
          : 'Nobody chose in time: the recommended default applied.',
      ]),
    );
    const chosenTitle = chosen ? inline(chosen.title, 100) : 'a strategy';
    return { text: `Curveball: ${happened} Going with ${chosenTitle}.`, blocks };
  }

  blocks.push(section(`*Options*\n${strategies.map((s) => strategyLine(s, false)).join('\n\n')}`));
  const buttons: ActionsBlockElement[] = strategies.map((s, i) =>
    button({
      text: s.title,
      suffix: s.recommended ? ' (recommended)' : undefined,
      actionId: indexedActionId(ACTION.curveballChoose, i),
      style: s.recommended ? 'primary' : undefined,
      value: curveballChoiceCodec.encode({ n: model.negotiationId, s: s.id }),
    }),
  );
  if (buttons.length > 0) blocks.push(actions(BLOCK.curveballStrategies, buttons));
  blocks.push(context(['The negotiation continues with the recommended option if nobody chooses.']));
  return { text: `Curveball: ${happened} Choose how to continue.`, blocks };
}
