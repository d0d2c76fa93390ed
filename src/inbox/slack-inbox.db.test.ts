// The Socket Mode inbox, through Parley's real Bolt app in Socket Mode (the socket itself replaced by emitting what
// the SocketModeClient emits for a delivery), its real listeners, the stand-in's Web API and a real database: an event
// is acknowledged only once saved; one whose processing fails is processed again later; a redelivered event id is
// saved and processed once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SocketModeReceiver } from '@slack/bolt';
import { startSlackSandbox, type SlackSandbox } from '../../dev/slack-stand-in/index.js';
import { fakeDeps } from '../../test/support/slack-payloads.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { createSlackApp, replaySavedEvent } from '../slack/app.js';
import { createInboxProcessor, type InboxProcessor } from './slack-inbox.js';

const TEAM = 'T0INBOX001';

function fileSharedDelivery(eventId: string, fileId: string) {
  return {
    token: 'verification-token',
    team_id: TEAM,
    api_app_id: 'A0PARLEY01',
    type: 'event_callback',
    event_id: eventId,
    event_time: 1767225600,
    event: {
      type: 'file_shared',
      file_id: fileId,
      channel_id: 'C0QUOTES01',
      user_id: 'U0BUYER001',
      file: { id: fileId },
      event_ts: '1767225600.000100',
    },
  };
}

describe('the Socket Mode inbox', () => {
  let db: TestDatabase;
  let sandbox: SlackSandbox;
  let inbox: InboxProcessor;
  let receiver: SocketModeReceiver;
  let saveFails = false;
  const { deps, parley } = fakeDeps();

  beforeAll(async () => {
    db = await createTestDatabase();
    sandbox = await startSlackSandbox();
    const processor = createInboxProcessor({
      prisma: db.prisma,
      owner: 'inbox-test',
      handle: (body) => replaySavedEvent(created.app, body),
      backoffBaseMs: 200,
    });
    inbox = {
      ...processor,
      save: (event) => (saveFails ? Promise.reject(new Error('database unavailable')) : processor.save(event)),
    };
    const created = createSlackApp({
      connection: { kind: 'socket', appToken: 'xapp-1-inbox-test', botToken: sandbox.botToken },
      slackApiUrl: sandbox.apiUrl,
      deps,
      inbox,
    });
    receiver = created.receiver as SocketModeReceiver;
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    await db?.destroy();
  });

  /** What the SocketModeClient emits for one delivery; resolves with its ack once Bolt has handled it. */
  async function deliver(body: Record<string, unknown>) {
    const ack = vi.fn(async () => {});
    receiver.client.emit('slack_event', { ack, body, type: 'events_api', retry_num: 0, retry_reason: '' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    return ack;
  }

  const row = (eventId: string) => db.prisma.slackInbox.findUnique({ where: { eventId } });

  it('acknowledges an event only once it is saved; an unsaved one is left for Slack to deliver again', async () => {
    saveFails = true;
    const unsaved = await deliver(fileSharedDelivery('Ev0UNSAVED1', 'F0UNSAVED1'));
    saveFails = false;
    expect(unsaved).not.toHaveBeenCalled();
    expect(await row('Ev0UNSAVED1')).toBeNull();
    // Nothing ran: the listener is reached only from the inbox.
    expect(parley.fileShared).not.toHaveBeenCalled();

    const saved = await deliver(fileSharedDelivery('Ev0UNSAVED1', 'F0UNSAVED1'));
    expect(saved).toHaveBeenCalledTimes(1);
    expect(await row('Ev0UNSAVED1')).toMatchObject({ status: 'pending', teamId: TEAM });
    expect(parley.fileShared).not.toHaveBeenCalled();
    await inbox.drain();
    expect(parley.fileShared).toHaveBeenCalledTimes(1);
    expect(await row('Ev0UNSAVED1')).toMatchObject({ status: 'done' });
  });

  it('processes an event whose processing failed once again later, through the same listener', async () => {
    parley.fileShared.mockClear();
    parley.fileShared.mockRejectedValueOnce(new Error('connection terminated'));
    const ack = await deliver(fileSharedDelivery('Ev0FAILS001', 'F0FAILS001'));
    expect(ack).toHaveBeenCalledTimes(1);

    await inbox.drain();
    expect(parley.fileShared).toHaveBeenCalledTimes(1);
    expect(await row('Ev0FAILS001')).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'connection terminated',
    });

    // Not before its backoff (database time), then once more: done.
    await inbox.drain();
    expect(parley.fileShared).toHaveBeenCalledTimes(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await inbox.drain();
    expect(parley.fileShared).toHaveBeenCalledTimes(2);
    expect(parley.fileShared).toHaveBeenLastCalledWith(expect.objectContaining({ teamId: TEAM, fileId: 'F0FAILS001' }));
    expect(await row('Ev0FAILS001')).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('saves and processes a redelivered event id once (each delivery is acknowledged)', async () => {
    parley.fileShared.mockClear();
    const first = await deliver(fileSharedDelivery('Ev0TWICE001', 'F0TWICE001'));
    const again = await deliver(fileSharedDelivery('Ev0TWICE001', 'F0TWICE001'));
    expect(first).toHaveBeenCalledTimes(1);
    expect(again).toHaveBeenCalledTimes(1);
    await inbox.drain();
    const redelivered = await deliver(fileSharedDelivery('Ev0TWICE001', 'F0TWICE001'));
    expect(redelivered).toHaveBeenCalledTimes(1);
    await inbox.drain();
    expect(parley.fileShared).toHaveBeenCalledTimes(1);
    expect(await db.prisma.slackInbox.count({ where: { eventId: 'Ev0TWICE001' } })).toBe(1);
  });
});
