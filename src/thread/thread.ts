// What every stage of the thread shares: where a quotation's thread is, a post or an edit of it as an outbox call,
// and the dedupe keys that make a replayed change enqueue nothing twice.
import { createHash } from 'node:crypto';
import type { NegotiationState } from '../negotiation/engine.js';
import type { WorkspaceDb, WorkspaceTx } from '../db/scoped.js';
import { type OutboxCall } from '../outbox/index.js';
import { BRAND_AGENT_NAME, type SlackMessage } from '../slack/views/index.js';

export const statusKey = (quotationId: string) => `q:${quotationId}:status`;
/** The negotiation's streamed plan (chat.startStream), under the status card. */
export const planKey = (quotationId: string) => `q:${quotationId}:plan`;
export const reviewKey = (quotationId: string) => `q:${quotationId}:review`;
export const negKey = (negotiationId: string, what: string) => `neg:${negotiationId}:${what}`;
/** The key a question's message was posted under (negotiation-events.ts); its answer and expiry edit it. */
export const questionKey = (negotiationId: string, engineQuestionId: string) =>
  negKey(negotiationId, `q:${engineQuestionId}`);

/** A draft for a connected supplier in the buyer's thread (its Send / Skip edit it). */
export const draftKey = (negotiationId: string, sequence: number) => negKey(negotiationId, `draft:${sequence}`);
/** The negotiation's thread in a connected supplier's channel: its first post, which the messages sent reply to. */
export const supplierThreadKey = (negotiationId: string, supplierCode: string) =>
  negKey(negotiationId, `supplier:${supplierCode}`);
/** The negotiation and the supplier a supplier thread's key names (null for any other key). */
export function parseSupplierThreadKey(key: string): { negotiationId: string; supplierCode: string } | null {
  const match = /^neg:([^:]+):supplier:(.+)$/.exec(key);
  return match?.[1] && match[2] ? { negotiationId: match[1], supplierCode: match[2] } : null;
}
/** A message sent to a connected supplier, in its channel's thread: enqueued once, whoever clicks Send again. */
export const supplierMessageKey = (negotiationId: string, sequence: number) =>
  negKey(negotiationId, `sent:${sequence}`);

export function changeKey(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

/** The quotation's columns that say where its thread is (threadOf). */
export const threadColumns = {
  id: true,
  slackChannelId: true,
  slackThreadTs: true,
  slackMessageTs: true,
  uploadedBySlackUserId: true,
  fileName: true,
  currency: true,
} as const;

export async function threadOf(tx: WorkspaceTx | WorkspaceDb, quotationId: string) {
  return tx.quotation.findUniqueOrThrow({ where: { id: quotationId }, select: threadColumns });
}

export type Thread = Awaited<ReturnType<typeof threadOf>>;
/** Where a post goes: the channel and the thread under the quotation's file. */
export type ThreadPlace = Pick<Thread, 'slackChannelId' | 'slackThreadTs'>;

export function message(
  thread: ThreadPlace,
  dedupeKey: string,
  body: SlackMessage,
  extra: Record<string, unknown> = {},
): OutboxCall {
  return {
    dedupeKey,
    method: 'chat.postMessage',
    channelId: thread.slackChannelId,
    threadTs: thread.slackThreadTs,
    payload: { text: body.text, blocks: body.blocks, unfurl_links: false, unfurl_media: false, ...extra },
  };
}

export function edit(
  thread: Pick<Thread, 'slackChannelId'>,
  dedupeKey: string,
  of: string,
  body: SlackMessage,
): OutboxCall {
  return {
    dedupeKey,
    method: 'chat.update',
    channelId: thread.slackChannelId,
    updateOf: of,
    payload: { text: body.text, blocks: body.blocks },
  };
}

/** A file uploaded into the thread (a chart, a workbook). */
export function upload(
  thread: ThreadPlace,
  dedupeKey: string,
  file: { filename: string; title: string; content: Buffer },
): OutboxCall {
  return {
    dedupeKey,
    method: 'files.uploadV2',
    channelId: thread.slackChannelId,
    threadTs: thread.slackThreadTs,
    payload: { filename: file.filename, title: file.title, contentBase64: file.content.toString('base64') },
  };
}

/**
 * Who a negotiation's questions are addressed to — mentioned in each question, its reminders and the expiry notice,
 * and the only person whose thread reply answers one: the buyer who started the negotiation and set its mandate.
 */
export function questionAddressee(negotiation: { startedBySlackUserId: string }): string {
  return negotiation.startedBySlackUserId;
}

export async function negotiationThread(tx: WorkspaceTx | WorkspaceDb, negotiationId: string) {
  const negotiation = await tx.negotiation.findUniqueOrThrow({
    where: { id: negotiationId },
    select: { quotationId: true, startedBySlackUserId: true },
  });
  return {
    quotationId: negotiation.quotationId,
    thread: await threadOf(tx, negotiation.quotationId),
    buyerId: questionAddressee(negotiation),
  };
}

export function supplierName(state: NegotiationState, code: string): string {
  return state.profiles.find((profile) => profile.code === code)?.name ?? code;
}

/**
 * Who asked a question: always the brand agent — suppliers never question the buyer. The supplier whose talks wait
 * for the answer is named as what the question is about, never as its author.
 */
export function askerName(aboutSupplier: string | null | undefined): string {
  return aboutSupplier ? `${BRAND_AGENT_NAME} (about ${aboutSupplier})` : BRAND_AGENT_NAME;
}
