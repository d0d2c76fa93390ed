// Issue 17: a 3,000-line quotation (sample 13) stays within every Block Kit and Web API limit — the review, the round
// messages, the request for quotes, the recommendation, the PO modal and the App Home — as real Slack would check
// them: every call Parley made in the whole story goes through the stand-in's spec checker (dev/slack-stand-in/spec.ts
// via callProblems). The thread stays short too, and the request's full list arrives as a file.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { RFQ_LINES_FILE } from '../../src/negotiation/format.js';

const LARGE = new URL('../../data/samples/13-large-3000-lines.xlsx', import.meta.url);

const running = useSandboxedParley({ negotiationSeed: 1 });

describe('a 3,000-line story', () => {
  it('stays within every Slack limit in the thread, the modals and the App Home', async () => {
    const bytes = await readFile(LARGE);
    const story = await playStory(running.parley, { file: { name: 'large.xlsx', bytes } });
    // The buyer and an approver open the App Home: their lists name this 3,000-line negotiation.
    for (const person of [PEOPLE.buyer, PEOPLE.approver]) await running.parley.sandbox.driver.openHome(person.id);
    await running.parley.settle();
    const { model } = running.parley.sandbox;

    const methods = new Set(model.calls.map((call) => call.method));
    for (const method of ['chat.postMessage', 'chat.update', 'views.open', 'views.publish']) {
      expect(methods, `the story made no ${method} call to check`).toContain(method);
    }
    expect(model.calls.filter((call) => !call.ok)).toEqual([]);
    expect(model.calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);

    const thread = model.thread(CHANNEL.id, story.threadTs);
    expect(thread.length).toBeLessThanOrEqual(15);
    const transcript = running.parley.sandbox.renderThread(CHANNEL.id, story.threadTs);
    expect(transcript).toContain('3,000 lines');
    expect(transcript).toContain(`the full list is attached (${RFQ_LINES_FILE})`);
    const list = thread
      .flatMap((m) => m.fileIds.flatMap((id) => model.file(id) ?? []))
      .find((f) => f.name === RFQ_LINES_FILE);
    expect(list?.bytes?.toString('utf8').trim().split('\r\n'), 'the full list: a header and every line').toHaveLength(
      3001,
    );
    const po = await running.db.prisma.purchaseOrder.findFirstOrThrow();
    expect(po.status).toBe('approved');
  }, 900_000);
});
