// A shared file's bytes from Slack, for reading a quotation: refused up front when files.info already says the file is
// larger than the workspace's upload limit, and cut off at that limit while downloading. Lazy: the reader calls it
// inside its own error handling, so a file too large or gone gets the quotation's clear reply, not a crash.
import { tooLarge } from '../../quotation/xlsx-errors.js';
import type { ServiceContext } from '../service-context.js';

/** What Slack's files.info says of a file, as far as reading a quotation needs it. */
export interface SharedFileInfo {
  name: string;
  filetype: string | null;
  sizeBytes: number | null;
  downloadUrl: string | null;
  /** The ts of the message that shared the file in `channelId`, when Slack says. */
  shareTs(channelId: string): string | null;
}

/** What Parley needs from Slack outside the outbox: reading a shared file. */
export interface SlackFiles {
  info(workspaceId: string, fileId: string): Promise<SharedFileInfo>;
  download(workspaceId: string, url: string, maxBytes: number): Promise<Buffer>;
  /** The ids of the files on one message (for `/parley negotiate` in its thread). */
  filesOfMessage(workspaceId: string, channelId: string, ts: string): Promise<string[]>;
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
  return async () => {
    const info = options.info ?? (await files.info(ctx.workspace.id, fileId));
    if (info.sizeBytes !== null && info.sizeBytes > ctx.limits.maxBytes) {
      throw tooLarge(info.sizeBytes, ctx.limits.maxBytes);
    }
    if (!info.downloadUrl) throw new Error(`files.info gave no download URL for ${fileId}`);
    return files.download(ctx.workspace.id, info.downloadUrl, ctx.limits.maxBytes);
  };
}
