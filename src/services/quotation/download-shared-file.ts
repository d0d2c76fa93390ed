// A shared file's bytes from Slack, for reading a quotation: refused up front when files.info already says the file is
// larger than the workspace's upload limit, and cut off at that limit while downloading. Lazy: the reader calls it
// inside its own error handling, so a file too large, gone or too slow to arrive gets the quotation's clear reply, not a
// crash.
import { QuotationError } from '../../quotation/errors.js';
import { tooLarge } from '../../quotation/xlsx-errors.js';
import { SlackFileTimeoutError } from '../../slack/slack-files.js';
import type { ServiceContext } from '../service-context.js';

/** What Slack's files.info says of a file, as far as reading a quotation needs it. */
export interface SharedFileInfo {
  name: string;
  filetype: string | null;
  sizeBytes: number | null;
  /** The file's owner (who uploaded it), and their team (another organisation's in Slack Connect). */
  sharedBy: string | null;
  userTeam: string | null;
  downloadUrl: string | null;
  /** The message that shared the file in `channelId` and the thread it is in (its own ts when top level). */
  share(channelId: string): { ts: string; threadTs: string } | null;
}

/** What conversations.info says of a channel, as far as receiving a file there needs it. */
export interface SharedChannelInfo {
  /** Parley is a member: it receives the channel's events and may post there. */
  isMember: boolean;
  /** A direct message with Parley: help, never a quotation's thread. */
  isIm: boolean;
  /** Shared with another organisation (Slack Connect): nothing internal is posted without the buyer's say. */
  isExternal: boolean;
  /** The organisations a Slack Connect channel connects, the workspace's own included (conversations.info). */
  connectedTeamIds: string[];
}

/** A file on one of a channel's recent messages (conversations.history). */
export interface ChannelFileShare {
  fileId: string;
  name: string;
  filetype: string | null;
  /** The message's author. */
  userId: string;
  ts: string;
}

/** What Parley needs from Slack outside the outbox: reading a shared file and the channel it is in. */
export interface SlackFiles {
  info(workspaceId: string, fileId: string): Promise<SharedFileInfo>;
  download(workspaceId: string, url: string, maxBytes: number): Promise<Buffer>;
  /** A channel Parley cannot see (private, not a member) reads as not a member. */
  channel(workspaceId: string, channelId: string): Promise<SharedChannelInfo>;
  /** The files on the channel's latest messages, newest first (for `/parley negotiate` without a link). */
  recentFiles(workspaceId: string, channelId: string): Promise<ChannelFileShare[]>;
}

export interface DownloadSharedFileOptions {
  files: SlackFiles;
  fileId: string;
  /** files.info as already read (a new share); without it, it is asked for at download time (a file read again). */
  info?: SharedFileInfo;
}

/** The download, to be called by the reader. */
export function sharedFileDownload(ctx: ServiceContext, options: DownloadSharedFileOptions): () => Promise<Buffer> {
  const { files, fileId } = options;
  const download = async () => {
    const info = options.info ?? (await files.info(ctx.workspace.id, fileId));
    if (info.sizeBytes !== null && info.sizeBytes > ctx.limits.maxBytes) {
      throw tooLarge(info.sizeBytes, ctx.limits.maxBytes);
    }
    if (!info.downloadUrl) throw new Error(`files.info gave no download URL for ${fileId}`);
    return files.download(ctx.workspace.id, info.downloadUrl, ctx.limits.maxBytes);
  };
  return () =>
    download().catch((error: unknown) => {
      throw error instanceof SlackFileTimeoutError ? downloadTimedOut(error) : error;
    });
}

/** Slack was too slow, not the file wrong: the buyer shares the same file again. */
function downloadTimedOut(cause: SlackFileTimeoutError): QuotationError {
  const seconds = Math.max(1, Math.round(cause.timeoutMs / 1000));
  return new QuotationError(
    'download_timeout',
    `Slack did not send this file within ${seconds} seconds, so Parley could not read it. Please share it again in a ` +
      'few minutes.',
    { cause },
  );
}
