// Answers posted to an interaction's response_url (Bolt's `respond()`): ephemeral by default, `in_channel` to post,
// `replace_original` / `delete_original` to change the message the click came from.
import { z } from 'zod';
import { createMessage, type ResponseTarget, type SlackModel } from './model.js';
import { ApiError, appThread, checkMessageBlocks, idGen, threadRoot, type MethodResult } from './web-api.js';
import { withGeneratedIds } from './shapes.js';

const responseSchema = z.object({
  text: z.string().optional(),
  blocks: z.array(z.record(z.string(), z.unknown())).optional(),
  response_type: z.enum(['ephemeral', 'in_channel']).optional(),
  replace_original: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  delete_original: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  thread_ts: z.string().optional(),
});

const truthy = (v: boolean | 'true' | 'false' | undefined) => v === true || v === 'true';

/** Registers where answers to a new response_url go and returns its path id. */
export function registerResponseUrl(model: SlackModel, target: ResponseTarget): string {
  const id = model.nextId('R');
  model.responseUrls.set(id, target);
  return id;
}

export function applyResponse(model: SlackModel, target: ResponseTarget, body: unknown): MethodResult {
  const parsed = responseSchema.safeParse(body);
  if (!parsed.success) return { ok: false, error: 'invalid_arguments' };
  const answer = parsed.data;
  try {
    if (truthy(answer.delete_original)) return deleteOriginal(model, target);
    if (!answer.text && answer.blocks === undefined) throw new ApiError('no_text');
    checkMessageBlocks(answer.text, answer.blocks);
    const blocks = answer.blocks === undefined ? undefined : withGeneratedIds(answer.blocks, idGen(model));
    const text = answer.text ?? '';
    if (truthy(answer.replace_original)) return replaceOriginal(model, target, text, blocks);
    if (answer.response_type === 'in_channel') {
      // The app's own thread_ts is taken as given (see appThread); the click's thread is Slack's, always a parent.
      const threadTs =
        answer.thread_ts !== undefined
          ? appThread(model, target.channel, answer.thread_ts)
          : target.threadTs === undefined
            ? undefined
            : threadRoot(model, target.channel, target.threadTs);
      model.addMessage(
        createMessage({
          channel: target.channel,
          ts: model.nextTs(),
          threadTs,
          user: model.botUserId,
          botId: model.botId,
          text,
          blocks,
          postedAt: model.clock(),
        }),
      );
      return { ok: true };
    }
    model.addEphemeral({
      user: target.user,
      channel: target.channel,
      ts: model.nextTs(),
      threadTs: answer.thread_ts ?? target.threadTs,
      text,
      blocks,
      source: 'response_url',
      postedAt: model.clock(),
    });
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: error.code };
    throw error;
  }
}

function deleteOriginal(model: SlackModel, target: ResponseTarget): MethodResult {
  if (target.messageTs === undefined) return { ok: false, error: 'message_not_found' };
  if (target.ephemeral) {
    const list = model.ephemerals(target.user);
    const index = list.findIndex((e) => e.ts === target.messageTs);
    if (index >= 0) list.splice(index, 1);
  } else {
    const message = model.message(target.channel, target.messageTs);
    if (!message) return { ok: false, error: 'message_not_found' };
    message.deleted = true;
  }
  model.changed();
  return { ok: true };
}

function replaceOriginal(
  model: SlackModel,
  target: ResponseTarget,
  text: string,
  blocks: Record<string, unknown>[] | undefined,
): MethodResult {
  if (target.messageTs === undefined) return { ok: false, error: 'message_not_found' };
  if (target.ephemeral) {
    const ephemeral = model.ephemerals(target.user).find((e) => e.ts === target.messageTs);
    if (!ephemeral) return { ok: false, error: 'message_not_found' };
    ephemeral.text = text;
    ephemeral.blocks = blocks;
  } else {
    const message = model.message(target.channel, target.messageTs);
    if (!message) return { ok: false, error: 'message_not_found' };
    message.history.push({ text: message.text, blocks: message.blocks, replacedAt: model.clock() });
    message.text = text;
    message.blocks = blocks;
    message.editedAt = model.nextTs();
  }
  model.changed();
  return { ok: true };
}
