// A person of a connected supplier shares a spreadsheet in its negotiation's thread, in its own channel: a revised
// quotation, the way to offer on more lines than the Submit offer form holds. It is claimed like any shared file —
// once per Slack file, whichever of the upload's events comes first — as a quotation row marked as this supplier's
// offer for the round, and read by the quotation reader's job (read-quotation.ts), which proposes the offer back to
// the supplier; only its people's confirmation records it (submit-offer-file.ts). Anything else is not Parley's to
// read: a file in another thread, or from someone not of the supplier's organisation.
import { log } from '../../log.js';
import { enqueueReadingCard } from '../../thread/status-card.js';
import { type SharedFileInfo, type SlackFiles, sharedFileDownload } from '../quotation/download-shared-file.js';
import type { ReceivedSlackFile } from '../quotation/receive-shared-file.js';
import type { ServiceContext } from '../service-context.js';
import { supplierThreadAt, supplierThreadState } from './supplier-thread.js';

export interface SupplierFileShare {
  files: SlackFiles;
  info: SharedFileInfo;
  fileId: string;
  channelId: string;
  threadTs: string | null;
  messageTs: string | null;
  sharedBy: string;
  /** The sharer's own organisation (the event's `user_team`, or files.info's). */
  teamId: string | null;
}

/** The claimed file and its download, or null when it is no connected supplier's offer file. */
export async function receiveSupplierOfferFile(
  ctx: ServiceContext,
  share: SupplierFileShare,
): Promise<ReceivedSlackFile | null> {
  const { fileId, channelId, threadTs, info } = share;
  const thread = threadTs ? await supplierThreadAt(ctx, channelId, threadTs) : null;
  const theirs = thread && thread.supplier.slackTeamId !== null && share.teamId === thread.supplier.slackTeamId;
  const state = theirs && thread.negotiationSupplierId ? await supplierThreadState(ctx, thread) : null;
  if (!thread?.negotiationSupplierId || !state || !threadTs) {
    log.info('shared file not read', { fileId, channelId, why: 'shared from outside, not as a supplier’s offer' });
    return null;
  }
  const offerForId = thread.negotiationSupplierId;
  const claimed = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.createMany({
      data: [
        {
          workspaceId: ctx.workspace.id,
          slackFileId: fileId,
          slackChannelId: channelId,
          slackThreadTs: threadTs,
          slackMessageTs: share.messageTs ?? threadTs,
          slackChannelExternal: true,
          uploadedBySlackUserId: share.sharedBy,
          fileName: info.name,
          fileSizeBytes: info.sizeBytes,
          status: 'received',
          supplierId: thread.supplier.id,
          offerForId,
          offerRound: state.round,
        },
      ],
      skipDuplicates: true,
    });
    const quotation = await tx.quotation.findUniqueOrThrow({
      where: { workspaceId_slackFileId: { workspaceId: ctx.workspace.id, slackFileId: fileId } },
      select: { id: true },
    });
    // The same status card as a buyer's file gets (it passes the supplier channel's discretion gate): "Reading…".
    if (count === 1) await enqueueReadingCard(tx, quotation.id);
    return { quotationId: quotation.id, isNew: count === 1 };
  });
  return { ...claimed, fileId, download: sharedFileDownload(ctx, { files: share.files, fileId, info }) };
}
