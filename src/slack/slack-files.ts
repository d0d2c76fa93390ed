// Reading a shared file from Slack: its metadata (files.info) and its bytes (url_private_download with the bot token),
// the download cut off at the upload limit so a huge file never fills memory. Each step has a deadline: a Slack that
// stops answering (or a download that trickles) must end in a reply to the buyer, not a reader waiting forever.
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';

/** Slack did not finish a step in time: the file is not read, and the buyer is told to share it again. */
export class SlackFileTimeoutError extends Error {
  override name = 'SlackFileTimeoutError';

  constructor(
    readonly step: 'info' | 'download',
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`Slack file ${step} took longer than ${timeoutMs} ms`, options);
  }
}

/**
 * Runs `work` with a signal that aborts after `timeoutMs`, and stops waiting then even if the work ignores the signal
 * (the WebClient takes none, and retries on its own): a timeout always surfaces as a SlackFileTimeoutError.
 */
async function withinDeadline<T>(
  step: SlackFileTimeoutError['step'],
  timeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(new SlackFileTimeoutError(step, timeoutMs)), { once: true });
  });
  try {
    return await Promise.race([work(signal), timedOut]);
  } catch (error) {
    // fetch rejects with the signal's own TimeoutError, sometimes before the abort listener above has run.
    if (signal.aborted && !(error instanceof SlackFileTimeoutError)) {
      throw new SlackFileTimeoutError(step, timeoutMs, { cause: error });
    }
    throw error;
  }
}

/** One share of a file in a channel: its message's ts, and the thread's when it was shared inside a thread. */
const shareSchema = z.object({ ts: z.string(), thread_ts: z.string().optional() });

const fileInfoSchema = z.object({
  file: z.object({
    id: z.string(),
    name: z.string().default('file'),
    filetype: z.string().optional(),
    size: z.number().optional(),
    user: z.string().optional(),
    user_team: z.string().optional(),
    url_private_download: z.string().optional(),
    shares: z
      .object({
        public: z.record(z.string(), z.array(shareSchema)).optional(),
        private: z.record(z.string(), z.array(shareSchema)).optional(),
      })
      .optional(),
  }),
});

export interface SlackFileInfo {
  id: string;
  name: string;
  filetype: string | null;
  sizeBytes: number | null;
  sharedBy: string | null;
  /** The uploader's team (Slack Connect: another organisation's), when Slack says. */
  userTeam: string | null;
  downloadUrl: string | null;
  /** The message that shared the file in `channelId` and the thread it is in (its own ts when top level). */
  share(channelId: string): { ts: string; threadTs: string } | null;
}

export async function slackFileInfo(client: WebClient, fileId: string, timeoutMs: number): Promise<SlackFileInfo> {
  const { file } = fileInfoSchema.parse(
    await withinDeadline('info', timeoutMs, () => client.files.info({ file: fileId })),
  );
  return {
    id: file.id,
    name: file.name,
    filetype: file.filetype ?? null,
    sizeBytes: file.size ?? null,
    sharedBy: file.user ?? null,
    userTeam: file.user_team ?? null,
    downloadUrl: file.url_private_download ?? null,
    share: (channelId) => {
      const share = file.shares?.public?.[channelId]?.[0] ?? file.shares?.private?.[channelId]?.[0];
      return share ? { ts: share.ts, threadTs: share.thread_ts ?? share.ts } : null;
    },
  };
}

export interface DownloadLimits {
  maxBytes: number;
  /** For the whole download, headers and body: a file that trickles in is cut off too. */
  timeoutMs: number;
}

/** Downloads with the bot token; stops reading past `maxBytes` (the reader then says the file is too large). */
export function downloadSlackFile(url: string, token: string, limits: DownloadLimits): Promise<Buffer> {
  const { maxBytes } = limits;
  return withinDeadline('download', limits.timeoutMs, async (signal) => {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal });
    if (!response.ok || !response.body) throw new Error(`Slack file download failed: HTTP ${response.status}`);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      // One byte past the limit is enough for the reader to report "too large" with the limit in its message.
      if (size > maxBytes) {
        chunks.push(Buffer.from(chunk).subarray(0, chunk.byteLength - (size - maxBytes - 1)));
        await response.body.cancel().catch(() => {});
        break;
      }
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  });
}
