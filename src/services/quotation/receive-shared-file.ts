// A file shared in a channel Parley is in (or pointed at with the shortcut, `/parley negotiate` or its buttons):
// looked up in Slack (files.info, conversations.info), skipped when it is not Parley's to read, then claimed once per
// Slack file — the `message` and `file_shared` events of one upload, and Slack's retries, all land here — and
// acknowledged in the thread (👀 and the status card) in the same transaction. Reading it is the caller's next, slower
// step.
//
// Whose file it is: the buyer is the person who shared it, unless they belong to another organisation (a supplier in
// a Slack Connect channel) — then only someone of the workspace who asks for it (an approver) can have it read, and
// becomes its buyer. Files in a direct message with Parley are never quotations: their thread would be a DM nobody
// else (approvers included) can see; the DM listener answers them with help.
import type { FileRequester, RecentChannelFile } from '../../app-types.js';
import { log } from '../../log.js';
import { isOutsider } from '../../slack/team.js';
import {
  type SharedChannelInfo,
  type SharedFileInfo,
  type SlackFiles,
  sharedFileDownload,
} from './download-shared-file.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import { threadLink } from '../screens.js';
import type { ServiceContext } from '../service-context.js';
import { enqueueReadingCard } from '../../thread/status-card.js';
import { mayApprove } from '../workspace/workspace-settings.js';
import { receiveSupplierOfferFile } from '../negotiation/receive-supplier-file.js';

export interface SharedFile {
  fileId: string;
  name: string;
  sizeBytes: number | null;
  channelId: string;
  /** The thread everything happens in: the file message's ts, or its thread's when shared inside a thread. */
  threadTs: string;
  /** The file's own message (where the 👀 goes). */
  messageTs: string;
  sharedBy: string;
  /** The channel has people from another organisation: the start modal asks before posting anything internal. */
  externalChannel: boolean;
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
          slackMessageTs: file.messageTs,
          slackChannelExternal: file.externalChannel,
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

/** How to bring Parley into a channel: the only way, since it never joins one on its own. */
export const INVITE_PARLEY =
  'Parley is not in this channel, so it cannot read files or post here. Invite it with `/invite @Parley`, then try ' +
  'again.';

export interface ReceiveSlackFileOptions {
  files: SlackFiles;
  fileId: string;
  channelId: string;
  /** The file message's author when the payload says; else the file's owner per files.info. */
  userId: string | null;
  userTeamId: string | null;
  /** The thread to work in, when the payload says; else the file's share in the channel. */
  threadTs: string | null;
  messageTs: string | null;
  /** Someone asked for this file: read whatever its type, if they may; refusals are for them. */
  requestedBy: FileRequester | null;
}

/** A claimed file and how to download it; `isNew` when this call claimed it (only then is it to be read). */
export type ReceivedSlackFile = ReceiveSharedFileResult & { fileId: string; download: () => Promise<Buffer> };

/**
 * A file seen in Slack, claimed when it is Parley's to read. Done with null when it is not (a share Slack reported:
 * not a spreadsheet, from another organisation, in a DM); refused, with the sentence for them, when someone asked
 * for a file Parley may not read for them.
 */
export async function receiveSlackFile(
  ctx: ServiceContext,
  options: ReceiveSlackFileOptions,
): Promise<ServiceResult<ReceivedSlackFile | null>> {
  const { files, fileId, channelId, requestedBy } = options;
  const skip = (why: string) => {
    log.info('shared file not read', { fileId, channelId, why });
    return done(null, false);
  };
  const outsider = (teamId: string | null | undefined) => isOutsider(teamId, ctx.workspace.slackTeamId);

  let channel: SharedChannelInfo | null = null;
  if (requestedBy) {
    if (outsider(requestedBy.teamId)) {
      return refused('not_allowed', `Only people of ${ctx.workspace.brandName} can ask Parley to read a quotation.`);
    }
    const existing = await alreadyRead(ctx, fileId);
    if (existing) return existing;
    // They may be in a channel Parley is not in, where Slack would not even show Parley the file: the channel first.
    channel = await files.channel(ctx.workspace.id, channelId);
    const notHere = whyNotHere(channel);
    if (notHere) return notHere;
  }
  const info: SharedFileInfo = await files.info(ctx.workspace.id, fileId);
  if (!requestedBy && !looksLikeQuotation(info.name, info.filetype)) return skip('not a spreadsheet');
  // A share Slack reported: most files are not spreadsheets, so the channel is looked up only for one that is.
  channel ??= await files.channel(ctx.workspace.id, channelId);
  if (channel.isIm || !channel.isMember) return skip('a direct message, or a channel Parley is not in');

  const uploader = options.userId ?? info.sharedBy;
  const uploaderTeam = options.userTeamId ?? info.userTeam;
  const uploaderOutside = outsider(uploaderTeam);
  if (!requestedBy && uploaderOutside && uploader) {
    // A connected supplier's people answering in their negotiation's thread with a revised quotation: its offer.
    const offerFile = await receiveSupplierOfferFile(ctx, {
      files,
      info,
      fileId,
      channelId,
      threadTs: options.threadTs ?? info.share(channelId)?.threadTs ?? null,
      messageTs: options.messageTs ?? info.share(channelId)?.ts ?? null,
      sharedBy: uploader,
      teamId: uploaderTeam ?? null,
    });
    return offerFile ? done(offerFile) : skip('shared by someone outside the workspace');
  }
  if (!requestedBy && (uploaderOutside || !uploader)) return skip('shared by someone outside the workspace');
  const buyer = buyerOf(ctx, { uploader: uploaderOutside ? null : uploader, requestedBy });
  if (!buyer.ok) return buyer;

  const share = info.share(channelId);
  const threadTs = options.threadTs ?? share?.threadTs ?? null;
  const messageTs = options.messageTs ?? share?.ts ?? threadTs;
  if (!threadTs || !messageTs) {
    if (requestedBy) return refused('not_found', 'That file is not shared in this channel. Share it here first.');
    return skip('no message to thread on');
  }
  const received = await receiveSharedFile(ctx, {
    fileId,
    name: info.name,
    sizeBytes: info.sizeBytes,
    channelId,
    threadTs,
    messageTs,
    sharedBy: buyer.value,
    externalChannel: channel.isExternal,
  });
  // Someone asked at the same moment as the share's event claimed it: it is being read, in its thread.
  if (requestedBy && !received.isNew) return (await alreadyRead(ctx, fileId)) ?? done(null, false);
  return done({ ...received, fileId, download: sharedFileDownload(ctx, { files, fileId, info }) });
}

/** Why a file cannot be read in this channel for someone who asked: a DM, or a channel Parley is not in. */
function whyNotHere(channel: SharedChannelInfo) {
  if (channel.isIm) return refused('invalid_input', 'Parley reads quotations shared in a channel, not in a DM.');
  return channel.isMember ? null : refused('not_allowed', INVITE_PARLEY);
}

/**
 * Whose quotation it becomes. A share Slack reported: its uploader's. Someone asking: theirs to ask only when they
 * shared it or approve purchases — and when the uploader is outside the workspace, the approver who asked is the buyer.
 */
function buyerOf(
  ctx: ServiceContext,
  who: { uploader: string | null; requestedBy: FileRequester | null },
): ServiceResult<string> {
  const { uploader, requestedBy } = who;
  if (!requestedBy) return uploader ? done(uploader) : refused('not_found', 'Nobody of this workspace shared it.');
  if (requestedBy.userId === uploader || mayApprove(requestedBy.userId, ctx.workspace.settings)) {
    return done(uploader ?? requestedBy.userId);
  }
  return refused(
    'not_allowed',
    uploader
      ? `Only <@${uploader}>, who shared it, and the approvers can ask Parley to read it.`
      : 'A file shared from outside the workspace is read when an approver asks for it.',
  );
}

/** The refusal for a file Parley has read already, with a link to its thread; null when it has not. */
async function alreadyRead(ctx: ServiceContext, fileId: string) {
  const quotation = await ctx.db.quotation.findUnique({
    where: { workspaceId_slackFileId: { workspaceId: ctx.workspace.id, slackFileId: fileId } },
    select: { slackChannelId: true, slackThreadTs: true },
  });
  if (!quotation) return null;
  const link = threadLink(quotation.slackChannelId, quotation.slackThreadTs);
  return refused('conflict', `Parley has read that file already${link ? `: <${link}|see its thread>` : ''}.`);
}

export interface RecentChannelFilesOptions {
  files: SlackFiles;
  channelId: string;
}

/** At most this many files offered as buttons: the newest are the likely ones, and a message stays short. */
export const RECENT_FILES_MAX = 10;

/**
 * `/parley negotiate` without a link: the spreadsheets on the channel's latest messages, newest first, each with the
 * thread Parley read it in if it has. Refused where Parley is not a member (Slack would not show it the channel).
 */
export async function recentChannelFiles(
  ctx: ServiceContext,
  options: RecentChannelFilesOptions,
): Promise<ServiceResult<RecentChannelFile[]>> {
  const { files, channelId } = options;
  const channel = await files.channel(ctx.workspace.id, channelId);
  if (channel.isIm) return refused('invalid_input', 'Run `/parley negotiate` in the channel the quotation is in.');
  if (!channel.isMember) return refused('not_allowed', INVITE_PARLEY);
  const shared = (await files.recentFiles(ctx.workspace.id, channelId))
    .filter((file) => looksLikeQuotation(file.name, file.filetype))
    .slice(0, RECENT_FILES_MAX);
  const read = await ctx.db.quotation.findMany({
    where: { slackFileId: { in: shared.map((file) => file.fileId) } },
    select: { slackFileId: true, slackChannelId: true, slackThreadTs: true },
  });
  const threads = new Map(read.map((q) => [q.slackFileId, threadLink(q.slackChannelId, q.slackThreadTs)]));
  return done(
    shared.map((file) => ({
      fileId: file.fileId,
      name: file.name,
      sharedBy: file.userId,
      readInThread: threads.get(file.fileId) ?? null,
    })),
    false,
  );
}
