// The PO modal is submitted: the approval, at the version the approver saw (a stale modal is a conflict, told
// privately), is committed before the modal closes.
import { poRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { tellUser } from '../respond.js';
import { type SubmitArgs, submittedBy } from './submission.js';

export function approvePo({ parley, screens }: SlackDeps) {
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const ref = poRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const { teamId, userId } = submittedBy(body);
    const result = await parley
      .approvePo(teamId, { purchaseOrderId: ref.po, by: userId, expectedVersion: ref.v })
      .finally(() => ack());
    if (!result.ok) {
      const channelId = await screens.purchaseOrderChannel(teamId, ref.po);
      await tellUser(client, { channelId, userId }, result);
    }
  };
}
