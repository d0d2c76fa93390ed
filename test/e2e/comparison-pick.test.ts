// A comparison sheet end to end (issue 16, class 6), through the local Slack stand-in and the real Bolt receiver: the
// buyer shares a comparison of 3 suppliers; the read-out offers one button per supplier and no lines; a colleague's
// click is refused; the buyer picks the second supplier, the file is read again with that column, and the review
// replaces the choice in the same message, with that supplier's prices and name — a double click changes nothing.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION } from '../../src/slack/ids.js';

const SAMPLE = new URL('../../data/samples/26-supplier-comparison.xlsx', import.meta.url);
const TRUTH = new URL('../../data/samples/26-supplier-comparison.truth.json', import.meta.url);

const running = useSandboxedParley();

describe('a comparison sheet, end to end', () => {
  it('offers a button per supplier, and the pick becomes that supplier’s quotation in the same message', async () => {
    const { driver, model } = running.parley.sandbox;
    const buyer = PEOPLE.buyer.id;
    const shared = await driver.shareFile(buyer, CHANNEL.id, {
      name: 'comparison.xlsx',
      bytes: await readFile(SAMPLE),
    });
    await running.parley.settle();
    const thread = () => model.thread(CHANNEL.id, shared.ts);
    const picks = (ts?: string) =>
      thread()
        .filter((m) => ts === undefined || m.ts === ts)
        .flatMap((m) => buttonsIn(m).filter((b) => b.actionId.startsWith(ACTION.comparisonPickColumn)));

    const choice = thread().find((m) => picks(m.ts).length > 0);
    if (!choice) throw new Error('no supplier buttons');
    expect(picks(choice.ts).map((b) => b.text)).toEqual([
      'Jiangsu Longriver Textile Co., Ltd.',
      'Ningbo Everbright Garments Co., Ltd.',
      'Dong Nai Apparel JSC',
    ]);
    const quotation = () => running.db.prisma.quotation.findFirstOrThrow({ where: { slackThreadTs: shared.ts } });
    expect((await quotation()).status).toBe('review');
    expect(await running.db.prisma.quotationItem.count()).toBe(0);

    const second = picks(choice.ts)[1];
    if (!second) throw new Error('no second supplier');
    const click = (who: string) =>
      driver.clickButton(who, { channel: CHANNEL.id, ts: choice.ts }, second.actionId, { value: second.value });

    // Not the buyer's colleague: refused, nothing saved.
    await click(PEOPLE.colleague.id);
    await running.parley.settle();
    expect((await quotation()).chosenColumn).toBeNull();

    // A double click: both saved before either re-read ends, one pick.
    await Promise.all([click(buyer), click(buyer)]);
    await running.parley.settle();
    const audits = await running.db.prisma.auditLog.count({ where: { action: 'quotation.comparison_column_chosen' } });
    expect(audits).toBe(1);

    const read = await quotation();
    expect(read.chosenColumn).toBe(1);
    expect(read.supplierNameRaw).toBe('Ningbo Everbright Garments Co., Ltd.');
    expect(['review', 'ready']).toContain(read.status);
    const lines = await running.db.prisma.quotationItem.findMany({
      where: { quotationId: read.id },
      orderBy: { position: 'asc' },
    });
    const truth = JSON.parse(await readFile(TRUTH, 'utf8')) as { items: { unitPrice: number }[] };
    expect(lines).toHaveLength(truth.items.length);
    // Ningbo's offers are 4 % over the first supplier's: never the first supplier's, never the target.
    lines.forEach((line, i) => expect(Number(line.unitPrice)).toBeGreaterThan(truth.items[i]?.unitPrice ?? Infinity));

    // The review took the choice's place: same message, no supplier buttons left, one review in the thread.
    expect(picks()).toEqual([]);
    const after = thread().find((m) => m.ts === choice.ts);
    expect(after && buttonsIn(after).length).toBeGreaterThan(0);
    const reviews = thread().filter((m) => (JSON.stringify(m.blocks) ?? '').includes('Review: comparison.xlsx'));
    expect(reviews.map((m) => m.ts)).toEqual([choice.ts]);
  }, 120_000);

  it('negotiates the picked supplier’s prices through to a recommendation', async () => {
    const story = await playStory(running.parley, {
      file: { name: 'comparison.xlsx', bytes: await readFile(SAMPLE) },
      comparisonColumn: 2,
      stopBeforeApproval: true,
    });
    expect(story.actions).toContain(`${PEOPLE.buyer.name} picks [Dong Nai Apparel JSC] to negotiate`);
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({
      where: { slackThreadTs: story.threadTs },
      include: { negotiation: true },
    });
    expect(quotation.supplierNameRaw).toBe('Dong Nai Apparel JSC');
    expect(quotation.negotiation?.status).toBe('completed');
  }, 240_000);
});
