// What the thread says when a PO is approved (by one approver of two, or fully) or rejected.
import { type SlackMessage, context, listPeople, section, who } from './blocks.js';
import { escapeTruncate, inline } from './escape.js';

export type PoOutcomeModel =
  | {
      kind: 'approval';
      poNumber: string;
      /** Everyone who has approved so far, in order. */
      approvers: string[];
      required: 1 | 2;
    }
  | { kind: 'rejected'; poNumber: string; by: string; reason: string };

export function buildPoOutcome(model: PoOutcomeModel): SlackMessage {
  const po = inline(model.poNumber, 40);
  if (model.kind === 'rejected') {
    const reason = escapeTruncate(model.reason.trim(), 1000) || '—';
    const line = `:x: *${po}* rejected by ${who(model.by)}`;
    return {
      text: `${po} rejected by ${who(model.by)}: ${inline(model.reason, 300)}`,
      blocks: [section(`${line}\n>${reason.replace(/\n/g, '\n>')}`)],
    };
  }
  const count = model.approvers.length;
  if (count < model.required) {
    const last = model.approvers[count - 1];
    const line =
      `:ballot_box_with_check: *${po}* approved by ${who(last)} (${count} of ${model.required}) — ` +
      `waiting for a ${count === 1 ? 'second' : 'further'} approver`;
    return { text: line.replace(/\*/g, ''), blocks: [section(line)] };
  }
  const line = `:white_check_mark: *${po}* approved by ${listPeople(model.approvers)}`;
  return {
    text: line.replace(/\*/g, ''),
    blocks: [section(line), context(['This purchase order is now final.'])],
  };
}
