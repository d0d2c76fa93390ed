// A workspace that refuses the streaming methods (`unknown_method` to chat.startStream): the plan falls back to plain
// chat.update edits of the status card — every stage still shows there — and nothing fails or is lost.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL } from '../../dev/slack-stand-in/sandboxed-parley.js';

const running = useSandboxedParley({
  afterStart: async ({ parley }) => {
    parley.sandbox.faults.set('chat.startStream', { error: 'unknown_method' });
    const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
    await playStory(parley, { file: { name: 'refused.xlsx', bytes } });
  },
});

describe('the plan where streaming is refused', () => {
  it('edits the status card instead, through every stage, with no stream and no failed call', async () => {
    const { model } = running.parley.sandbox;
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { fileName: 'refused.xlsx' } });
    const thread = model.thread(CHANNEL.id, quotation.slackThreadTs ?? quotation.slackMessageTs ?? '');
    expect(thread.filter((m) => m.stream !== undefined)).toEqual([]);
    const methods = model.calls.map((c) => c.method);
    expect(methods.filter((m) => m === 'chat.startStream')).toHaveLength(1);
    // Once refused, the rest of that stream goes straight to the card: no append or stop is even tried.
    expect(methods).not.toContain('chat.appendStream');
    expect(methods).not.toContain('chat.stopStream');
    const cardRow = await running.db.prisma.slackOutbox.findFirstOrThrow({
      where: { dedupeKey: `q:${quotation.id}:status` },
    });
    const card = thread.find((m) => m.ts === cardRow.resultTs);
    const versions = [...(card?.history ?? []), { blocks: card?.blocks }].map((v) => JSON.stringify(v.blocks));
    expect(versions.some((v) => /Round \d of \d/.test(v))).toBe(true);
    expect(versions.some((v) => /Recommendation ready/.test(v))).toBe(true);
    expect(versions.at(-1)).toMatch(/approved/);
    // The card never stays on "follow the plan below" when there is no plan.
    expect(versions.indexOf(versions.find((v) => /Follow each step/.test(v)) ?? '')).not.toBe(versions.length - 1);
    const failed = await running.db.prisma.slackOutbox.count({ where: { status: 'failed' } });
    expect(failed).toBe(0);
  });
});
