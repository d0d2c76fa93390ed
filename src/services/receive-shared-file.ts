// A file shared in a channel Parley is in (or pointed at with the shortcut or `/parley negotiate`): claimed once per
// Slack file — the `message` and `file_shared` events of one upload, and Slack's retries, all land here — then
// acknowledged in the thread (👀 and the status card) in the same transaction.
import type { ServiceContext } from './service-context.js';
import { enqueueReadingCard } from '../thread/status-card.js';

export interface SharedFile {
  fileId: string;
  name: string;
  sizeBytes: number | null;
  channelId: string;
  /** The ts of the message that carries the file: the thread everything happens in. */
  threadTs: string;
  sharedBy: string;
}

export type ReceiveSharedFileResult = { quotationId: string; isNew: boolean };

export async function receiveSharedFile(ctx: ServiceContext, file: SharedFile): Promise<ReceiveSharedFileResult> {
  return ctx.db.$transaction(async (tx) => {
    const { count } = await tx.quotation.createMany({
      data: [
        {
          workspaceId: ctx.workspace.id,
          slackFileId: file.fileId,
          slackChannelId: file.channelId,
          slackThreadTs: file.threadTs,
          uploadedBySlackUserId: file.sharedBy,
          fileName: file.name,
          fileSizeBytes: file.sizeBytes,
          status: 'received',
        },
      ],
      skipDuplicates: true,
    });
    const quotation = await tx.quotation.findUniqueOrThrow({
      where: { workspaceId_slackFileId: { workspaceId: ctx.workspace.id, slackFileId: file.fileId } },
      select: { id: true },
    });
    if (count === 1) await enqueueReadingCard(tx, quotation.id);
    return { quotationId: quotation.id, isNew: count === 1 };
  });
}

/** Spreadsheets Parley answers on its own; any other file only when someone asks (shortcut, `/parley negotiate`). */
export function looksLikeQuotation(name: string, filetype?: string | null): boolean {
  const spreadsheet = ['xlsx', 'xlsm', 'xls', 'csv', 'ods', 'numbers'];
  const extension = name.includes('.') ? (name.toLowerCase().split('.').pop() ?? '') : '';
  return spreadsheet.includes(extension) || spreadsheet.includes(filetype?.toLowerCase() ?? '');
}
