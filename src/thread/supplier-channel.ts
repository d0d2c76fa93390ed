// What Parley posts in a supplier's own Slack Connect channel (outside any negotiation's thread): the welcome once the
// channel is connected. Read by the supplier's organisation, so it names only the brand and who connected it.
import type { WorkspaceTx } from '../db/scoped.js';
import { enqueueSlackCall } from '../outbox/index.js';
import { buildHeldBackNotice, buildSupplierWelcome } from '../slack/views/index.js';
import { message } from './thread.js';

export async function enqueueSupplierWelcome(
  tx: WorkspaceTx,
  welcome: { supplierId: string; supplierName: string; channelId: string; brandName: string; by: string },
): Promise<void> {
  const body = buildSupplierWelcome(welcome);
  const place = { slackChannelId: welcome.channelId, slackThreadTs: null };
  const key = `supplier:${welcome.supplierId}:welcome:${welcome.channelId}`;
  await enqueueSlackCall(tx, {
    ...message(place, key, body),
    // Held back (it named another supplier, say): the person who connected the channel is told in their DM.
    heldBackNotice: (why) =>
      message({ slackChannelId: welcome.by, slackThreadTs: null }, `${key}:held`, buildHeldBackNotice(why)),
  });
}
