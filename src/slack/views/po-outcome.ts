// What the thread says when a PO is approved (by one approver of two, or fully) or rejected, and the line that
// @-mentions the approvers a PO waits for (here for the second approval, and under the decision for the first).
import { type SlackMessage, context, listPeople, section, who } from './blocks.js';
import { escapeTruncate, inline } from './escape.js';

export type PoOutcomeModel =
  | {
      kind: 'approval';
      poNumber: string;
      /** Everyone who has approved so far, in order. */
      approvers: string[];
      required: 1 | 2;
      /** The configured approvers who have not approved yet: mentioned while an approval is still missing. */
      waitingFor: readonly string[];
    }
  | { kind: 'rejected'; poNumber: string; by: string; reason: string };

/** At most this many approvers are mentioned in one line (a workspace may list many). */
const MENTIONED_MAX = 10;

/**
 * The approvers a PO waits for, @-mentioned so Slack notifies them; when there are none to ask (none configured, or
 * the only one has approved already), who can set them. `which`: the first approval, or a further one.
 */
export function approversWanted(model: {
  poNumber: string;
  waitingFor: readonly string[];
  which: 'first' | 'further';
}): string {
  const po = `*${inline(model.poNumber, 40)}*`;
  const people = model.waitingFor.slice(0, MENTIONED_MAX);
  if (people.length > 0) {
    const more = model.waitingFor.length - people.length;
    return `:bell: ${listPeople(people)}${more > 0 ? ` (and ${more} more)` : ''}: ${po} is waiting for your approval.`;
  }
  return model.which === 'first'
    ? `:warning: No approvers are set for this workspace yet, so nobody can approve ${po}: a workspace admin can ` +
        'add them with `/parley settings`.'
    : `:warning: No other approver is set, so nobody can give ${po} its second approval: a workspace admin can add ` +
        'one with `/parley settings`.';
}

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
    const wanted = approversWanted({ poNumber: model.poNumber, waitingFor: model.waitingFor, which: 'further' });
    // The mentions go in the fallback text too: it is what the notification shows.
    return { text: `${line}. ${wanted}`.replace(/\*/g, ''), blocks: [section(line), section(wanted)] };
  }
  const line = `:white_check_mark: *${po}* approved by ${listPeople(model.approvers)}`;
  return {
    text: line.replace(/\*/g, ''),
    blocks: [section(line), context(['This purchase order is now final.'])],
  };
}
