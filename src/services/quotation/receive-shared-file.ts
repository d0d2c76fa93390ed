// A file shared in a channel Parley is in (or pointed at with the shortcut or `/parley negotiate`): looked up in Slack
// (files.info), skipped when it is no spreadsheet and nobody asked for it, then claimed once per Slack file — the
// `message` and `file_shared` events of one upload, and Slack's retries, all land here — and acknowledged in the
// thread (👀 and the status card) in the same transaction. Reading it is the caller's next, slower step.
import { log } from '../../log.js';
import { type SharedFileInfo, type SlackFiles, sharedFileDownload } from './download-shared-file.js';
import type { ServiceContext } from '../service-context.js';
import { enqueueReadingCard } from '../../thread/status-card.js';

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

export interface ReceiveSlackFileOptions {
  files: SlackFiles;
  fileId: string;
  channelId: string;
  userId: string;
  /** The message to thread on when the payload names it; otherwise the file's share in the channel. */
  threadTs: string | null;
  /** Someone asked for this file (shortcut, `/parley negotiate`): claimed whatever its type. */
  explicit: boolean;
}

/** A claimed file and how to download it; `isNew` when this call claimed it (only then is it to be read). */
export type ReceivedSlackFile = ReceiveSharedFileResult & { fileId: string; download: () => Promise<Buffer> };

/** A file seen in Slack, claimed when it is Parley's to read; null when it is not (or has no message to thread on). */
export async function receiveSlackFile(
  ctx: ServiceContext,
  options: ReceiveSlackFileOptions,
): Promise<ReceivedSlackFile | null> {
  const { files, fileId, channelId } = options;
  const info: SharedFileInfo = await files.info(ctx.workspace.id, fileId);
  if (!options.explicit && !looksLikeQuotation(info.name, info.filetype)) return null;
  const threadTs = options.threadTs ?? info.shareTs(channelId);
  if (!threadTs) {
    log.warn('shared file without a message to thread on', { fileId });
    return null;
  }
  const received = await receiveSharedFile(ctx, {
    fileId,
    name: info.name,
    sizeBytes: info.sizeBytes,
    channelId,
    threadTs,
    sharedBy: options.userId,
  });
  return { ...received, fileId, download: sharedFileDownload(ctx, { files, fileId, info }) };
}

export interface ReceiveFilesOfMessageOptions {
  files: SlackFiles;
  channelId: string;
  messageTs: string;
  userId: string;
}

/** `/parley negotiate` in a thread: every file of the thread's first message, claimed as if someone pointed at it. */
export async function receiveFilesOfMessage(
  ctx: ServiceContext,
  options: ReceiveFilesOfMessageOptions,
): Promise<ReceivedSlackFile[]> {
  const { files, channelId, messageTs } = options;
  const received: ReceivedSlackFile[] = [];
  for (const fileId of await files.filesOfMessage(ctx.workspace.id, channelId, messageTs)) {
    const file = await receiveSlackFile(ctx, {
      files,
      fileId,
      channelId,
      userId: options.userId,
      threadTs: messageTs,
      explicit: true,
    });
    if (file) received.push(file);
  }
  return received;
}
