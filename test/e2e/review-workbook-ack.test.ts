// "Download all lines" is acknowledged once the request is saved, not once the workbook is written (issue 15, item 4):
// the review workbook of a 3,000-line quotation is most of a second of CPU, which the click's acknowledgement used to
// wait for. Here the workbook's writing is held until the test lets it go: the click must be acknowledged meanwhile
// (well before the listener's 2.5 s deadline, which acknowledges a slow call anyway), and the workbook is uploaded into
// the thread, through the outbox, once written.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { buttonsIn } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION } from '../../src/slack/ids.js';
import { ACK_DEADLINE_MS } from '../../src/slack/listeners/deadline.js';
import { type Compute, computeInProcess } from '../../src/worker/compute.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);

let release: () => void = () => {};
const released = new Promise<void>((resolve) => (release = resolve));
let writing = 0;
/** The real workbook, written only once the test releases it. */
const heldWorkbook: Compute = {
  ...computeInProcess,
  async reviewWorkbook(input) {
    writing++;
    await released;
    return computeInProcess.reviewWorkbook(input);
  },
};

const running = useSandboxedParley({ compute: heldWorkbook });

describe('Download all lines', () => {
  it('is acknowledged once the request is saved; the workbook is written and uploaded after', async () => {
    const { driver, model } = running.parley.sandbox;
    const buyer = PEOPLE.buyer.id;
    const shared = await driver.shareFile(buyer, CHANNEL.id, { name: 'quote.xlsx', bytes: await readFile(SAMPLE) });
    await running.parley.settle();
    const thread = () => model.thread(CHANNEL.id, shared.ts);
    const review = thread().find((m) => buttonsIn(m).some((b) => b.actionId === ACTION.reviewDownloadLines));
    const download = review && buttonsIn(review).find((b) => b.actionId === ACTION.reviewDownloadLines);
    if (!review || !download) throw new Error('no Download all lines button');

    const started = performance.now();
    const response = await driver.clickButton(buyer, { channel: CHANNEL.id, ts: review.ts }, download.actionId, {
      value: download.value,
    });
    const ackMs = performance.now() - started;
    expect(response.status).toBe(200);
    // Acknowledged while the workbook is still held, and not by the deadline that acknowledges a slow call.
    expect(ackMs).toBeLessThan(ACK_DEADLINE_MS - 500);
    const uploads = () =>
      thread()
        .flatMap((m) => m.fileIds.map((id) => model.file(id)))
        .filter((file) => file?.name.endsWith(' - review.xlsx'));
    expect(uploads()).toHaveLength(0);

    // The saved request is a job: it writes the workbook (once released) and the outbox uploads it.
    for (let waited = 0; writing === 0 && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect(writing).toBe(1);
    release();
    await running.parley.settle();
    expect(uploads()).toHaveLength(1);
  }, 120_000);
});
