// Reading a shared file from Slack: its metadata (files.info) and its bytes (url_private_download with the bot token),
// the download cut off at the upload limit so a huge file never fills memory.
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';

const fileInfoSchema = z.object({
  file: z.object({
    id: z.string(),
    name: z.string().default('file'),
    filetype: z.string().optional(),
    size: z.number().optional(),
    user: z.string().optional(),
    url_private_download: z.string().optional(),
    shares: z
      .object({
        public: z.record(z.string(), z.array(z.object({ ts: z.string() }))).optional(),
        private: z.record(z.string(), z.array(z.object({ ts: z.string() }))).optional(),
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
  downloadUrl: string | null;
  /** The ts of the message that shared the file in `channelId`, when Slack says. */
  shareTs(channelId: string): string | null;
}

export async function slackFileInfo(client: WebClient, fileId: string): Promise<SlackFileInfo> {
  const { file } = fileInfoSchema.parse(await client.files.info({ file: fileId }));
  return {
    id: file.id,
    name: file.name,
    filetype: file.filetype ?? null,
    sizeBytes: file.size ?? null,
    sharedBy: file.user ?? null,
    downloadUrl: file.url_private_download ?? null,
    shareTs: (channelId) =>
      file.shares?.public?.[channelId]?.[0]?.ts ?? file.shares?.private?.[channelId]?.[0]?.ts ?? null,
  };
}

/** Downloads with the bot token; stops reading past `maxBytes` (the reader then says the file is too large). */
export async function downloadSlackFile(url: string, token: string, maxBytes: number): Promise<Buffer> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
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
}
