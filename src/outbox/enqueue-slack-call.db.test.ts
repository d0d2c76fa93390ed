import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { env } from '../config/env.js';
import { scopeToWorkspace, type WorkspaceDb } from '../db/scoped.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { enqueueSlackCall, enqueueSlackCalls, sentTs } from './enqueue-slack-call.js';
import { InvalidOutboxCallError, OUTBOX_REFERENCE_KEY, type OutboxCall, readStoredPayload } from './outbox-call.js';
import { compareRows } from './outbox-poster.js';
import { countingOperations } from '../../test/support/counting-operations.js';

const post = (dedupeKey: string, extra: Partial<OutboxCall> = {}): OutboxCall => ({
  dedupeKey,
  method: 'chat.postMessage',
  channelId: 'C1',
  payload: { text: dedupeKey },
  ...extra,
});

class Rollback extends Error {}

describe('enqueueSlackCall', () => {
  let db: TestDatabase;
  let ws: WorkspaceDb;
  let other: WorkspaceDb;

  beforeAll(async () => {
    db = await createTestDatabase();
    const [a, b] = await Promise.all([
      db.prisma.workspace.create({ data: { slackTeamId: 'TA', name: 'A', brandName: 'Brand A' } }),
      db.prisma.workspace.create({ data: { slackTeamId: 'TB', name: 'B', brandName: 'Brand B' } }),
    ]);
    ws = scopeToWorkspace(db.prisma, a.id);
    other = scopeToWorkspace(db.prisma, b.id);
  });
  afterAll(async () => {
    await db.destroy();
  });
  beforeEach(async () => {
    await db.prisma.slackOutbox.deleteMany();
  });

  it('runs on the backend the environment asks for', () => {
    expect(db.kind).toBe(env.DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('writes one row per dedupe key inside a transaction that then commits and keeps working', async () => {
    const result = await ws.$transaction(async (tx) => {
      const first = await enqueueSlackCall(tx, post('neg:1:msg:1'));
      const again = await enqueueSlackCall(tx, post('neg:1:msg:1', { payload: { text: 'different' } }));
      // On PostgreSQL a unique violation would abort the transaction; this write proves it did not.
      const quotation = await tx.quotation.create({
        data: {
          workspaceId: ws.$workspaceId,
          slackFileId: 'F1',
          slackChannelId: 'C1',
          uploadedBySlackUserId: 'U1',
          fileName: 'q.xlsx',
        },
      });
      return { first, again, quotationId: quotation.id };
    });
    expect(result.first).toBe(true);
    expect(result.again).toBe(false);
    const rows = await ws.slackOutbox.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.payload).toEqual({ text: 'neg:1:msg:1' });
    expect(rows[0]?.workspaceId).toBe(ws.$workspaceId);
    expect(await ws.quotation.count({ where: { id: result.quotationId } })).toBe(1);
    // Replayed later, outside the transaction: still nothing new.
    expect(await enqueueSlackCall(ws, post('neg:1:msg:1'))).toBe(false);
    expect(await ws.slackOutbox.count()).toBe(1);
  });

  it('skips keys repeated within one batch and keys already stored', async () => {
    await enqueueSlackCall(ws, post('a'));
    const written = await enqueueSlackCalls(ws, [post('a'), post('b'), post('b'), post('c')]);
    expect(written).toBe(2);
    expect((await ws.slackOutbox.findMany()).map((row) => row.dedupeKey).sort()).toEqual(['a', 'b', 'c']);
  });

  it('writes nothing when the surrounding transaction rolls back', async () => {
    await expect(
      ws.$transaction(async (tx) => {
        await enqueueSlackCalls(tx, [post('r1'), post('r2')]);
        expect(await tx.slackOutbox.count()).toBe(2);
        throw new Rollback('the state change failed');
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await ws.slackOutbox.count()).toBe(0);
  });

  it('keeps the order of a batch and of successive calls', async () => {
    await enqueueSlackCalls(
      ws,
      Array.from({ length: 20 }, (_, i) => post(`order:${i}`)),
    );
    await enqueueSlackCall(ws, post('order:20'));
    const rows = await ws.slackOutbox.findMany();
    const sorted = [...rows].sort(compareRows).map((row) => row.dedupeKey);
    expect(sorted).toEqual(Array.from({ length: 21 }, (_, i) => `order:${i}`));
  });

  it('stores references under the reserved payload key and the explicit thread in its column', async () => {
    await enqueueSlackCalls(ws, [
      post('card'),
      post('reply', { threadOf: 'card' }),
      { dedupeKey: 'edit', method: 'chat.update', channelId: 'C1', updateOf: 'card', payload: { text: 'v2' } },
      post('in-thread', { threadTs: '1700000000.000100' }),
    ]);
    const byKey = new Map((await ws.slackOutbox.findMany()).map((row) => [row.dedupeKey, row]));
    expect(byKey.get('reply')?.payload).toEqual({ text: 'reply', [OUTBOX_REFERENCE_KEY]: { threadOf: 'card' } });
    expect(readStoredPayload(byKey.get('edit')?.payload)).toEqual({
      args: { text: 'v2' },
      references: { updateOf: 'card' },
    });
    expect(byKey.get('in-thread')?.threadTs).toBe('1700000000.000100');
    expect(byKey.get('card')?.status).toBe('pending');
    expect(byKey.get('card')?.notBefore.getTime()).toBe(byKey.get('card')?.createdAt.getTime());
  });

  it('refuses malformed calls, which aborts the caller’s transaction', async () => {
    const bad: OutboxCall[] = [
      { dedupeKey: 'u', method: 'chat.update', channelId: 'C1', payload: { text: 'x' } },
      post('p', { payload: { text: 'x', channel: 'C2' } }),
      post('m', { payload: { text: 'x', metadata: { event_type: 'x', event_payload: {} } } }),
      post('t', { threadTs: '1.2', threadOf: 'card' }),
      { dedupeKey: 'v', method: 'views.publish', channelId: 'C1', payload: { user_id: 'U1', view: {} } },
      { dedupeKey: 'v2', method: 'views.publish', channelId: null, payload: { view: {} } },
      { dedupeKey: 'f', method: 'files.uploadV2', channelId: 'C1', payload: { filename: 'a.png' } },
      post('self', { threadOf: 'self' }),
    ];
    for (const call of bad) {
      await expect(enqueueSlackCall(ws, call), call.dedupeKey).rejects.toBeInstanceOf(InvalidOutboxCallError);
    }
    await expect(
      ws.$transaction(async (tx) => {
        await enqueueSlackCall(tx, post('good'));
        await enqueueSlackCall(tx, bad[0] ?? post('x'));
      }),
    ).rejects.toBeInstanceOf(InvalidOutboxCallError);
    expect(await ws.slackOutbox.count()).toBe(0);
  });

  it('accepts every method in its documented shape', async () => {
    const written = await enqueueSlackCalls(ws, [
      post('p'),
      { dedupeKey: 'u', method: 'chat.update', channelId: 'C1', updateOf: 'p', payload: { text: 'x' } },
      { dedupeKey: 'e', method: 'chat.postEphemeral', channelId: 'C1', payload: { user: 'U1', text: 'no' } },
      { dedupeKey: 'r', method: 'reactions.add', channelId: 'C1', updateOf: 'p', payload: { name: 'eyes' } },
      { dedupeKey: 'v', method: 'views.publish', channelId: null, payload: { user_id: 'U1', view: { type: 'home' } } },
      {
        dedupeKey: 'f',
        method: 'files.uploadV2',
        channelId: 'C1',
        threadOf: 'p',
        payload: { filename: 'po.xlsx', title: 'PO', contentBase64: Buffer.from('xlsx').toString('base64') },
      },
    ]);
    expect(written).toBe(6);
  });

  it('sentTs finds the ts of a sent row of this workspace only', async () => {
    await enqueueSlackCalls(ws, [post('card'), post('later')]);
    expect(await sentTs(ws, 'card')).toBeNull();
    await ws.slackOutbox.updateMany({
      where: { dedupeKey: 'card' },
      data: { status: 'sent', resultTs: '1700000000.000200', sentAt: new Date() },
    });
    expect(await sentTs(ws, 'card')).toBe('1700000000.000200');
    expect(await sentTs(ws, 'later')).toBeNull();
    expect(await sentTs(ws, 'missing')).toBeNull();
    expect(await sentTs(other, 'card')).toBeNull();
    // The same key in another workspace is another row.
    expect(await enqueueSlackCall(other, post('card'))).toBe(true);
  });

  it('skips a chat.update that repeats the last edit of its message, and only that', async () => {
    const edit = (key: string, text: string, updateOf = 'card'): OutboxCall => ({
      dedupeKey: key,
      method: 'chat.update',
      channelId: 'C1',
      updateOf,
      payload: { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] },
    });
    await enqueueSlackCall(ws, post('card'));
    expect(await enqueueSlackCall(ws, edit('card:1', 'Reading'))).toBe(true);
    // The same content again (its keys in another order: jsonb reorders them anyway) is not sent again.
    const reordered: OutboxCall = {
      ...edit('card:2', 'Reading'),
      payload: { blocks: [{ text: { text: 'Reading', type: 'mrkdwn' }, type: 'section' }], text: 'Reading' },
    };
    expect(await enqueueSlackCall(ws, reordered)).toBe(false);
    // A change is sent; going back to an earlier content is a change too.
    expect(await enqueueSlackCalls(ws, [edit('card:3', 'Negotiating'), edit('card:4', 'Negotiating')])).toBe(1);
    expect(await enqueueSlackCall(ws, edit('card:5', 'Reading'))).toBe(true);
    // Another message with the same content is its own message.
    await enqueueSlackCall(ws, post('other-card'));
    expect(await enqueueSlackCall(ws, edit('other:1', 'Reading', 'other-card'))).toBe(true);
    // After a failed edit, the same content is tried again.
    await db.prisma.slackOutbox.updateMany({ where: { dedupeKey: 'card:5' }, data: { status: 'failed' } });
    expect(await enqueueSlackCall(ws, edit('card:6', 'Reading'))).toBe(true);
    const edits = await ws.slackOutbox.findMany({
      where: { method: 'chat.update' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    expect(edits.map((row) => row.dedupeKey)).toEqual(['card:1', 'card:3', 'card:5', 'other:1', 'card:6']);
  });

  it('looks up the last edit of every message a batch edits, and the time, in one statement', async () => {
    const edit = (key: string, text: string, updateOf: string): OutboxCall => ({
      dedupeKey: key,
      method: 'chat.update',
      channelId: 'C1',
      updateOf,
      payload: { text },
    });
    await enqueueSlackCalls(ws, [post('review'), post('status'), edit('review:1', 'Review 1', 'review')]);
    // Every operation asked of the database, as the client hands it to Prisma.
    const { client: counting, operations } = countingOperations(db.prisma);
    const counted = scopeToWorkspace(counting, ws.$workspaceId);
    // A review click's batch: the review (the same as its last edit: skipped) and the status card (never edited).
    const batch = [edit('review:2', 'Review 1', 'review'), edit('status:1', 'Status 1', 'status')];
    expect(await enqueueSlackCalls(counted, batch)).toBe(1);
    // A transaction waits for each statement, and a click's acknowledgement for its transaction: the last edits with
    // the time and the supplier channels among the batch's (the discretion gate, supplier-channels.ts), the insert.
    expect(operations).toEqual(['$queryRaw', 'SlackOutbox.createMany']);
    const edits = await ws.slackOutbox.findMany({ where: { method: 'chat.update' }, orderBy: { createdAt: 'asc' } });
    expect(edits.map((row) => row.dedupeKey)).toEqual(['review:1', 'status:1']);
  });

  it('dates rows by the database’s clock, not the host’s', async () => {
    // The database server's clock an hour ahead of this host (PGlite runs on the host's clock, so the server's answer to
    // clock_timestamp() is given here): rows must follow the database, which every instance shares.
    const databaseTime = new Date(Date.now() + 3_600_000);
    const skewed = new Proxy(ws, {
      get(target, property, receiver) {
        if (property === '$queryRaw') return async () => [{ at: databaseTime, recipients: [] }];
        return Reflect.get(target, property, receiver);
      },
    });
    await enqueueSlackCall(skewed, post('dated'));
    const row = await ws.slackOutbox.findFirstOrThrow({ where: { dedupeKey: 'dated' } });
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(databaseTime.getTime());
    expect(row.createdAt.getTime() - databaseTime.getTime()).toBeLessThan(1_000);
  });
});
