// Escaping end to end: quotations whose cells carry Slack markup go through the whole story in the Slack stand-in —
// shared, reviewed, negotiated, decided, approved — and every Web API call Parley made is searched for that markup
// arriving as markup. "Text echoed into Slack is escaped" (DESIGN.md) holds only if it holds in every message, edit,
// modal and Home tab, not just in the builders' unit tests.
import { readFile } from 'node:fs/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { sharedWorkers } from '../../test/support/shared-workers.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { callProblems } from '../slack-stand-in/call-log.js';
import { playStory } from '../slack-stand-in/play-story.js';
import { PEOPLE, type SandboxedParley, startSandboxedParley } from '../slack-stand-in/sandboxed-parley.js';
import { FILE_MENTION, HOSTILE_SUPPLIER, buildHostileQuotation, slackLeaks } from './hostile-quotation.js';

let db: TestDatabase;
let parley: SandboxedParley;

beforeAll(async () => {
  db = await createTestDatabase('seeded');
  parley = await startSandboxedParley({ ...sharedWorkers(), db });
}, 120_000);

afterAll(async () => {
  await parley?.stop();
  await db?.destroy();
});

/** Plays the whole story on `bytes` and returns the Web API calls Parley made meanwhile, and the thread. */
async function story(name: string, bytes: Buffer) {
  const { model } = parley.sandbox;
  const first = model.calls.length;
  const played = await playStory(parley, { file: { name, bytes } });
  // The Home tab lists the negotiation and its PO: render it for the buyer and the approver too.
  for (const person of [PEOPLE.buyer.id, PEOPLE.approver.id]) {
    await parley.sandbox.driver.openHome(person);
    await parley.sandbox.waitFor(() => model.home(person), { what: 'the Home tab' });
  }
  await parley.settle();
  return { calls: model.calls.slice(first), threadTs: played.threadTs };
}

const everything = (calls: { args: unknown }[]) => JSON.stringify(calls.map((call) => call.args));

describe('text from a quotation file, all the way to Slack', () => {
  it('the hostile-notes sample: no ping, no link, and every call within Slack’s limits', async () => {
    const bytes = await readFile(new URL('../../data/samples/12-hostile-notes-hidden-cells.xlsx', import.meta.url));
    const { calls, threadTs } = await story('hostile-notes.xlsx', bytes);
    expect(calls.length).toBeGreaterThan(10);
    expect(calls.flatMap((call) => slackLeaks(call.method, call.args))).toEqual([]);
    expect(calls.flatMap((call) => callProblems(call.method, call.args).map((p) => `${call.method}: ${p}`))).toEqual(
      [],
    );
    expect(calls.filter((call) => !call.ok)).toEqual([]);
    // The instruction in a cell changed nothing: the story reached an approved PO at the quoted prices.
    const quotation = await db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: threadTs } });
    const items = await db.prisma.quotationItem.findMany({ where: { quotationId: quotation.id } });
    expect(items.every((item) => Number(item.unitPrice) > 1)).toBe(true);
  }, 240_000);

  it('a workbook of pings, mentions, disguised links and a 10,000-character cell: all of it printed as text', async () => {
    const { calls, threadTs } = await story('markup.xlsx', await buildHostileQuotation());
    const leaks = calls.flatMap((call) => slackLeaks(call.method, call.args));
    expect(leaks).toEqual([]);
    expect(calls.flatMap((call) => callProblems(call.method, call.args).map((p) => `${call.method}: ${p}`))).toEqual(
      [],
    );
    expect(calls.filter((call) => !call.ok)).toEqual([]);

    // Not vacuous: the file's text did reach Slack, escaped — the supplier's name, the mention, the links.
    // A pre-escaped entity in a cell prints as typed (`&amp;lt;`), not as the character it names.
    const sent = everything(calls);
    for (const escaped of [
      'cc:&lt;@U0MAYA0001&gt;',
      '&lt;!channel&gt;',
      '&lt;https://evil.example|click&gt;',
      '&amp;lt;',
    ]) {
      expect(sent.includes(escaped), `${escaped} in some call`).toBe(true);
    }
    const quotation = await db.prisma.quotation.findFirstOrThrow({
      where: { slackThreadTs: threadTs },
      include: { supplier: true, negotiation: true },
    });
    expect(quotation.supplierNameRaw).toBe(HOSTILE_SUPPLIER);
    expect(quotation.supplier?.name).toBe(HOSTILE_SUPPLIER);
    expect(quotation.negotiation?.status).toBe('completed');
    const approved = await db.prisma.purchaseOrder.count({
      where: { negotiationId: quotation.negotiation?.id, status: 'approved' },
    });
    expect(approved).toBe(1);
  }, 240_000);
});

describe('slackLeaks', () => {
  it('finds markup from the file and passes its escaped form and Parley’s own mentions', () => {
    const leaky = {
      text: 'Quote from <!channel> Trading',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `Supplier ${FILE_MENTION}` } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'see https://evil.example/pay' }] },
        { type: 'section', text: { type: 'plain_text', text: '<https://evil.example|click>' } },
      ],
    };
    expect(slackLeaks('chat.postMessage', leaky).map((leak) => [leak.kind, leak.path])).toEqual([
      ['broadcast', 'text'],
      ['mention', 'blocks[0].text.text'],
      ['autolink', 'blocks[1].elements[0].text'],
      ['link', 'blocks[2].text.text'],
    ]);
    const safe = {
      text: 'Shared by <@U0MAYA0001>: quote from &lt;!channel&gt; Trading',
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'cc:&lt;@U0MAYA0001&gt; &lt;https://evil.example|click&gt;', verbatim: true },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'see https://evil.example/pay', verbatim: true }] },
      ],
      // Not rendered as text by Slack.
      metadata: { event_payload: { raw: '<!channel>' } },
    };
    expect(slackLeaks('chat.postMessage', safe)).toEqual([]);
  });
});
