// Issue 15, defect 1, over HTTP: a shared file whose claim cannot be saved (the database refuses it) must not be
// acknowledged — Bolt answers 500, so Slack delivers the event again — and Slack's retry, once the database is back,
// saves it. Before the fix `app.error` swallowed the error and the receiver answered 200: the upload was lost and
// nobody was told. The fault is real: the quotations table is renamed away for the outage and back after it.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';

const running = useSandboxedParley();

async function quotationsTable(rename: 'away' | 'back'): Promise<void> {
  const [from, to] = rename === 'away' ? ['Quotation', 'Quotation_outage'] : ['Quotation_outage', 'Quotation'];
  await running.db.prisma.$executeRawUnsafe(`ALTER TABLE "${from}" RENAME TO "${to}"`);
}

describe('an event whose work was not saved', () => {
  it('is answered with a 500 (not acknowledged), and Slack’s retry saves it once the database is back', async () => {
    const { driver } = running.parley.sandbox;
    const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));

    await quotationsTable('away');
    let shared;
    try {
      shared = await driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, { name: 'outage.xlsx', bytes });
    } finally {
      await quotationsTable('back');
    }
    expect(shared.message.status).toBe(500);
    expect(shared.fileShared.status).toBe(500);
    expect(await running.db.prisma.quotation.count({ where: { slackFileId: shared.fileId } })).toBe(0);

    const retried = await driver.retryEvent(shared.message, { retryNum: 1, retryReason: 'http_error' });
    expect(retried.status).toBe(200);
    expect(await running.db.prisma.quotation.count({ where: { slackFileId: shared.fileId } })).toBe(1);
  }, 60_000);
});
