// The gate between Parley and its suppliers' organisations. Every call the outbox is given passes through here before
// it is written: a call to a connected supplier's channel (a Slack Connect channel its organisation reads) is checked
// by the discretion check, and one that carries anything internal is not written at all — it is audited, and the
// buyer is told why where the caller said (`heldBackNotice`). Which channels are a supplier's is read with the batch's
// other facts, in the statement it needed already; only a batch to a supplier reads the others' names.
import { writeAudit } from '../db/audit.js';
import { describeLeaks, findLeaks, supplierChannelFacts } from './discretion-check.js';
import type { WorkspaceDb, WorkspaceTx } from '../db/scoped.js';
import type { OutboxCall } from './outbox-call.js';

const stringOr = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What a person in the channel would read of a call: its text (or an upload's title and comment) and its blocks. */
function readable(call: OutboxCall): { text: string; blocks: unknown[] } {
  const { payload } = call;
  const text = [payload.text, payload.initial_comment, payload.title].map(stringOr).join('\n');
  return { text, blocks: Array.isArray(payload.blocks) ? payload.blocks : [] };
}

/** A connected supplier whose channel a batch writes to (read with the batch's other facts: enqueue-slack-call.ts). */
export interface SupplierRecipient {
  code: string;
  name: string;
  channelId: string;
}

/** `calls` less those held back from a supplier's channel, with the notices that tell the buyer about them. */
export async function screenSupplierChannelCalls(
  writer: WorkspaceDb | WorkspaceTx,
  calls: readonly OutboxCall[],
  recipients: readonly SupplierRecipient[],
): Promise<OutboxCall[]> {
  if (recipients.length === 0) return [...calls];
  const everyone = await writer.supplier.findMany({ select: { code: true, name: true } });
  const kept: OutboxCall[] = [];
  for (const call of calls) {
    const recipient = recipients.find((supplier) => supplier.channelId === call.channelId);
    if (!recipient) {
      kept.push(call);
      continue;
    }
    const facts = call.confidential ?? supplierChannelFacts(recipient, everyone);
    const leaks = findLeaks(readable(call), facts);
    if (leaks.length === 0) {
      kept.push(call);
      continue;
    }
    const why = describeLeaks(leaks);
    await writeAudit(writer, null, {
      action: 'outbox.held_back',
      entityType: 'slack_call',
      entityId: call.dedupeKey,
      data: { channelId: call.channelId, supplierCode: recipient.code, why },
    });
    const notice = call.heldBackNotice?.(why);
    // A notice goes to the buyer privately (a user id: their DM with Parley); one aimed anywhere else would need
    // the same check, so it is dropped.
    if (notice && notice.channelId !== null && /^[UWD][A-Z0-9]+$/.test(notice.channelId)) kept.push(notice);
  }
  return kept;
}
