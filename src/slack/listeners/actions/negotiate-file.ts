// A Negotiate button of `/parley negotiate`'s list: reads that file of the channel, its uploader the buyer (the
// person clicking must be them or an approver; the service says why not otherwise).
import { fileRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { interactionUserTeamId } from '../../team.js';
import { onClick, valueOf } from './click.js';

export function negotiateFile({ parley }: SlackDeps) {
  return onClick(async ({ body, action }, at) => {
    const value = fileRefCodec.decode(valueOf(action));
    if (!value || !at.channelId) return null;
    return parley.fileShared({
      teamId: at.teamId,
      fileId: value.f,
      channelId: at.channelId,
      userId: null,
      userTeamId: null,
      threadTs: null,
      messageTs: null,
      requestedBy: { userId: at.userId, teamId: interactionUserTeamId(body) },
    });
  });
}
