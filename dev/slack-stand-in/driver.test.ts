// The driver against a real Bolt App + HTTPReceiver: signed requests are accepted and tampered ones rejected, and the
// people's actions (sharing a file, clicking, submitting a modal, /parley, shortcuts, Home) arrive shaped like Slack's.
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, HTTPReceiver, LogLevel, type ViewResponseAction } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkCallLog, startSlackSandbox, type SlackSandbox } from './index.js';

const ALICE = 'U0ALICE001';
const BOB = 'U0BOB00001';
const CHANNEL = 'C0SOURCING';

interface Seen {
  kind: string;
  body: Record<string, unknown>;
  retryNum?: number;
}

let sandbox: SlackSandbox;
let app: App;
let seen: Seen[] = [];
let callLogPath: string;
/** How the view listener answers the next submission. */
let submissionAnswer: ViewResponseAction | undefined;

const approveButton = {
  type: 'actions',
  block_id: 'po_actions',
  elements: [
    {
      type: 'button',
      action_id: 'po_approve',
      value: 'po-1',
      style: 'primary',
      text: { type: 'plain_text', text: 'Approve' },
    },
    { type: 'button', action_id: 'po_reject', value: 'po-1', text: { type: 'plain_text', text: 'Reject' } },
  ],
};

const supplierSelect = {
  type: 'static_select' as const,
  action_id: 'supplier_pick',
  options: [
    { text: { type: 'plain_text' as const, text: 'Acme' }, value: 'SUP-001' },
    { text: { type: 'plain_text' as const, text: 'Globex' }, value: 'SUP-002' },
  ],
};

const approveModal = {
  type: 'modal' as const,
  callback_id: 'po_approve_modal',
  private_metadata: 'po-1',
  title: { type: 'plain_text' as const, text: 'Approve PO' },
  submit: { type: 'plain_text' as const, text: 'Approve' },
  blocks: [
    {
      type: 'input',
      block_id: 'reason',
      label: { type: 'plain_text' as const, text: 'Reason' },
      element: { type: 'plain_text_input', action_id: 'reason_text' },
    },
    {
      type: 'input',
      block_id: 'supplier',
      label: { type: 'plain_text' as const, text: 'Supplier' },
      element: supplierSelect,
    },
  ],
};

beforeAll(async () => {
  callLogPath = join(mkdtempSync(join(tmpdir(), 'parley-sandbox-')), 'calls.jsonl');
  sandbox = await startSlackSandbox({
    users: [
      { id: ALICE, name: 'alice', realName: 'Alice Buyer' },
      { id: BOB, name: 'bob', realName: 'Bob Approver' },
    ],
    channels: [{ id: CHANNEL, name: 'sourcing', members: [ALICE, BOB] }],
    callLogPath,
  });
  app = new App({
    token: sandbox.botToken,
    receiver: new HTTPReceiver({ signingSecret: sandbox.signingSecret, logLevel: LogLevel.ERROR }),
    clientOptions: { slackApiUrl: sandbox.apiUrl, retryConfig: { retries: 0 } },
    logLevel: LogLevel.ERROR,
  });
  app.event('message', async ({ event, body, context }) => {
    seen.push({ kind: 'message', body: { ...body, event }, retryNum: context.retryNum });
  });
  app.event('file_shared', async ({ event, client, body }) => {
    seen.push({ kind: 'file_shared', body });
    const info = await client.files.info({ file: event.file_id });
    const download = await fetch(String(info.file?.url_private_download), {
      headers: { authorization: `Bearer ${sandbox.botToken}` },
    });
    const bytes = Buffer.from(await download.arrayBuffer());
    const ts = info.file?.shares?.public?.[event.channel_id]?.[0]?.ts;
    await client.chat.postMessage({
      channel: event.channel_id,
      thread_ts: ts,
      text: `Read ${info.file?.name} (${bytes.length} bytes)`,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Quotation received' } },
        { type: 'section', text: { type: 'mrkdwn', text: `Read *${info.file?.name}* (${bytes.length} bytes)` } },
        approveButton,
      ],
    });
  });
  app.action('po_approve', async ({ ack, body, client }) => {
    await ack();
    seen.push({ kind: 'po_approve', body: { ...body } });
    if ('trigger_id' in body) await client.views.open({ trigger_id: body.trigger_id, view: approveModal });
  });
  app.action('po_reject', async ({ ack, body, respond }) => {
    await ack();
    seen.push({ kind: 'po_reject', body: { ...body } });
    await respond({ replace_original: true, text: `Rejected by <@${body.user.id}>` });
  });
  app.action('supplier_pick', async ({ ack, body, respond }) => {
    await ack();
    seen.push({ kind: 'supplier_pick', body: { ...body } });
    await respond({ response_type: 'ephemeral', text: 'Supplier noted' });
  });
  app.action('modal_help', async ({ ack, body, client }) => {
    await ack();
    seen.push({ kind: 'modal_help', body: { ...body } });
    if (body.type === 'block_actions' && body.view) {
      await client.views.update({
        view_id: body.view.id,
        hash: body.view.hash,
        view: { ...approveModal, title: { type: 'plain_text', text: 'Help shown' } },
      });
    }
  });
  app.view('po_approve_modal', async ({ ack, body }) => {
    seen.push({ kind: 'view_submission', body: { ...body } });
    await ack(submissionAnswer);
  });
  app.command('/parley', async ({ ack, command }) => {
    seen.push({ kind: 'command', body: { ...command } });
    await ack({ text: `Parley help for ${command.text || 'everyone'}` });
  });
  app.shortcut('negotiate_quote', async ({ ack, body, client }) => {
    await ack();
    seen.push({ kind: 'shortcut', body: { ...body } });
    await client.views.open({ trigger_id: body.trigger_id, view: approveModal });
  });
  app.event('app_home_opened', async ({ event, client }) => {
    seen.push({ kind: 'home', body: { ...event } });
    await client.views.publish({
      user_id: event.user,
      view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Nothing waiting for you' } }] },
    });
  });
  const server = await app.start(0);
  const { port } = server.address() as AddressInfo;
  sandbox.setEventsUrl(`http://127.0.0.1:${port}/slack/events`);
});

afterAll(async () => {
  await app.stop();
  await sandbox.close();
});

beforeEach(() => {
  seen = [];
  submissionAnswer = undefined;
});

function seenOf(kind: string): Seen[] {
  return seen.filter((s) => s.kind === kind);
}

describe('events about the app itself', () => {
  it("echoes the app's own upload as Slack does: a file_shared from the bot user, which Bolt does not filter", async () => {
    const own = await startSlackSandbox({ channels: [{ id: CHANNEL, name: 'sourcing' }], echoBotEvents: true });
    const ownApp = new App({
      token: own.botToken,
      receiver: new HTTPReceiver({ signingSecret: own.signingSecret, logLevel: LogLevel.ERROR }),
      clientOptions: { slackApiUrl: own.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    const events: { type: string; user?: string }[] = [];
    ownApp.event('file_shared', async ({ event }) => {
      events.push({ type: event.type, user: event.user_id });
    });
    ownApp.event('message', async ({ event }) => {
      events.push({ type: event.type });
    });
    const server = await ownApp.start(0);
    own.setEventsUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`);
    try {
      await ownApp.client.files.uploadV2({ channel_id: CHANNEL, content: 'po', filename: 'PO.xlsx' });
      await own.driver.idle();
      await own.waitFor(() => events.length > 0);
      // Bolt's ignoreSelf drops the bot's own message event; file_shared carries user_id, so it gets through.
      expect(events).toEqual([{ type: 'file_shared', user: own.model.botUserId }]);
    } finally {
      await ownApp.stop();
      await own.close();
    }
  });
});

describe('signed requests', () => {
  it('delivers a signed event to the listener and gets a quick ack', async () => {
    const { ts, response } = await sandbox.driver.postMessage(ALICE, CHANNEL, 'hello parley');
    expect(response.status).toBe(200);
    expect(response.ackMs).toBeLessThan(3000);
    const got = await sandbox.waitFor(() => seenOf('message')[0], { what: 'the message event' });
    expect(got.body).toMatchObject({
      type: 'event_callback',
      team_id: 'T0SANDBOX1',
      event: { type: 'message', user: ALICE, text: 'hello parley', ts, channel: CHANNEL, channel_type: 'channel' },
    });
  });

  it('is rejected with 401 when the signature is wrong or the timestamp is stale', async () => {
    const event = {
      type: 'message',
      user: ALICE,
      text: 'forged',
      channel: CHANNEL,
      ts: '1.000001',
      event_ts: '1.000001',
    };
    const forged = await sandbox.driver.sendEvent(event, { badSignature: true });
    expect(forged.status).toBe(401);
    const stale = await sandbox.driver.sendEvent(event, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(stale.status).toBe(401);
    expect(seenOf('message')).toEqual([]);
  });

  it('passes Slack retry headers through, and a replay is the same request again', async () => {
    const first = await sandbox.driver.postMessage(ALICE, CHANNEL, 'once');
    const retried = await sandbox.driver.retry(first.response, { retryNum: 2, retryReason: 'http_timeout' });
    const replayed = await sandbox.driver.replay(first.response);
    expect([retried.status, replayed.status]).toEqual([200, 200]);
    const messages = await sandbox.waitFor(() => seenOf('message').length === 3 && seenOf('message'));
    expect(messages.map((m) => m.retryNum)).toEqual([undefined, 2, undefined]);
    const ids = messages.map((m) => m.body.event_id);
    expect(new Set(ids).size).toBe(1);
    expect(replayed.request).toEqual(first.response.request);
  });
});

describe('people acting', () => {
  it('shares a file: both events arrive, the app downloads it and answers in the thread; click opens a modal', async () => {
    const bytes = Buffer.from('fake xlsx content');
    const shared = await sandbox.driver.shareFile(
      ALICE,
      CHANNEL,
      { name: 'quote.xlsx', bytes, text: 'New quote' },
      { order: 'concurrent' },
    );
    expect([shared.message.status, shared.fileShared.status]).toEqual([200, 200]);
    const [messageEvent] = await sandbox.waitFor(() => seenOf('message').length === 1 && seenOf('message'));
    expect(messageEvent?.body.event).toMatchObject({
      subtype: 'file_share',
      ts: shared.ts,
      files: [{ id: shared.fileId, name: 'quote.xlsx', filetype: 'xlsx' }],
    });
    expect(seenOf('file_shared')[0]?.body.event).toMatchObject({ file_id: shared.fileId, channel_id: CHANNEL });

    const reply = await sandbox.waitFor(() => sandbox.model.thread(CHANNEL, shared.ts)[1], { what: "the app's reply" });
    expect(reply.text).toBe(`Read quote.xlsx (${bytes.length} bytes)`);

    expect(sandbox.renderThread(CHANNEL, shared.ts)).toBe(
      [
        `── #sourcing · thread ${shared.ts} ──`,
        'Alice Buyer',
        '  New quote',
        '  📎 quote.xlsx',
        '',
        'Parley',
        '  # Quotation received',
        `  Read *quote.xlsx* (${bytes.length} bytes)`,
        '  [Approve] [Reject]',
        '',
      ].join('\n'),
    );

    // Bob clicks Approve: the listener opens the modal with the click's trigger_id.
    const click = await sandbox.driver.clickButton(BOB, { channel: CHANNEL, ts: reply.ts }, 'po_approve');
    expect(click.status).toBe(200);
    const [modal] = await sandbox.waitFor(
      () => sandbox.model.openViews(BOB).length === 1 && sandbox.model.openViews(BOB),
    );
    const action = seenOf('po_approve')[0]?.body;
    expect(action).toMatchObject({
      type: 'block_actions',
      user: { id: BOB },
      container: { type: 'message', message_ts: reply.ts, channel_id: CHANNEL, thread_ts: shared.ts },
      channel: { id: CHANNEL, name: 'sourcing' },
      message: { ts: reply.ts, thread_ts: shared.ts },
      actions: [{ type: 'button', action_id: 'po_approve', block_id: 'po_actions', value: 'po-1' }],
    });
    expect(String(action?.response_url)).toMatch(/\/response\/R\d+$/);
    await expect(sandbox.driver.clickButton(BOB, { channel: CHANNEL, ts: reply.ts }, 'po_missing')).rejects.toThrow(
      /no button with action_id po_missing/,
    );

    // A required input left empty cannot be submitted; the app's field errors keep the modal open.
    const viewId = String(modal?.id);
    await expect(sandbox.driver.submitView(BOB, viewId, { supplier: 'SUP-001' })).rejects.toThrow(
      /required input reason/,
    );
    submissionAnswer = { response_action: 'errors', errors: { reason: 'Say why' } };
    const refused = await sandbox.driver.submitView(BOB, viewId, { reason: ' ', supplier: 'SUP-002' });
    expect(refused.responseAction).toBe('errors');
    expect(sandbox.model.view(viewId)?.errors).toEqual({ reason: 'Say why' });
    const submitted = seenOf('view_submission')[0]?.body;
    expect(submitted).toMatchObject({
      type: 'view_submission',
      view: {
        id: viewId,
        callback_id: 'po_approve_modal',
        private_metadata: 'po-1',
        state: {
          values: {
            reason: { reason_text: { type: 'plain_text_input', value: ' ' } },
            supplier: { supplier_pick: { type: 'static_select', selected_option: { value: 'SUP-002' } } },
          },
        },
      },
    });
    expect(typeof (submitted?.view as { hash?: unknown } | undefined)?.hash).toBe('string');

    submissionAnswer = undefined;
    const accepted = await sandbox.driver.submitView(BOB, viewId, { reason: 'Best price' });
    expect(accepted.responseAction).toBe('close');
    expect(sandbox.model.openViews(BOB)).toEqual([]);
    const lastState = seenOf('view_submission')[1]?.body.view as { state: { values: unknown } } | undefined;
    expect(lastState?.state.values).toMatchObject({
      supplier: { supplier_pick: { selected_option: { value: 'SUP-002' } } },
    });
  });

  it("answers a click through response_url (Bolt's respond) and a select's choice", async () => {
    const posted = await app.client.chat.postMessage({
      channel: CHANNEL,
      text: 'Approve the PO?',
      blocks: [
        {
          type: 'section',
          block_id: 'pick',
          text: { type: 'mrkdwn', text: 'Which supplier?' },
          accessory: supplierSelect,
        },
        approveButton,
      ],
    });
    const target = { channel: CHANNEL, ts: String(posted.ts) };
    await sandbox.driver.selectOption(ALICE, target, 'supplier_pick', 'SUP-002');
    const picked = await sandbox.waitFor(() => seenOf('supplier_pick')[0]);
    expect(picked.body.actions).toMatchObject([
      { type: 'static_select', action_id: 'supplier_pick', block_id: 'pick', selected_option: { value: 'SUP-002' } },
    ]);
    await sandbox.waitFor(() => sandbox.model.ephemerals(ALICE).some((e) => e.text === 'Supplier noted'));
    await expect(sandbox.driver.selectOption(ALICE, target, 'supplier_pick', 'SUP-999')).rejects.toThrow(/no option/);

    await sandbox.driver.clickButton(BOB, target, 'po_reject');
    const edited = await sandbox.waitFor(() => {
      const message = sandbox.model.message(CHANNEL, target.ts);
      return message?.editedAt !== undefined && message;
    });
    expect(edited.text).toBe(`Rejected by <@${BOB}>`);
    expect(edited.blocks).toBeUndefined();
    expect(sandbox.threadJson(CHANNEL, target.ts)[0]).toMatchObject({
      text: 'Rejected by @Bob Approver',
      edited: true,
    });
  });

  it('clicks a button inside an open modal, which the app updates in place', async () => {
    const { ts } = await sandbox.driver.postMessage(ALICE, CHANNEL, 'anchor for a modal');
    await sandbox.driver.messageShortcut(ALICE, { channel: CHANNEL, ts }, 'negotiate_quote');
    const [view] = await sandbox.waitFor(
      () => sandbox.model.openViews(ALICE).length === 1 && sandbox.model.openViews(ALICE),
    );
    const viewId = String(view?.id);
    // The modal the shortcut opened has no help button; the app's update adds one, as a live app might.
    await app.client.views.update({
      view_id: viewId,
      view: {
        ...approveModal,
        blocks: [
          ...approveModal.blocks,
          {
            type: 'actions',
            block_id: 'help',
            elements: [{ type: 'button', action_id: 'modal_help', text: { type: 'plain_text', text: 'Help' } }],
          },
        ],
      },
    });
    await sandbox.driver.clickButton(ALICE, { viewId }, 'modal_help');
    const click = await sandbox.waitFor(() => seenOf('modal_help')[0]);
    expect(click.body).toMatchObject({ container: { type: 'view', view_id: viewId }, view: { id: viewId } });
    expect(click.body.response_url).toBeUndefined();
    await sandbox.waitFor(() => {
      const title = sandbox.model.view(viewId)?.view.title;
      return typeof title === 'object' && title !== null && 'text' in title && title.text === 'Help shown';
    });
    await sandbox.driver.closeView(ALICE, viewId);
    expect(sandbox.model.openViews(ALICE)).toEqual([]);
  });

  it('applies response_action update and push from a submission', async () => {
    const { ts } = await sandbox.driver.postMessage(ALICE, CHANNEL, 'anchor');
    await sandbox.driver.messageShortcut(ALICE, { channel: CHANNEL, ts }, 'negotiate_quote');
    const shortcut = await sandbox.waitFor(() => seenOf('shortcut')[0]);
    expect(shortcut.body).toMatchObject({
      type: 'message_action',
      callback_id: 'negotiate_quote',
      message_ts: ts,
      message: { text: 'anchor' },
    });
    const [view] = await sandbox.waitFor(
      () => sandbox.model.openViews(ALICE).length === 1 && sandbox.model.openViews(ALICE),
    );
    const viewId = String(view?.id);
    submissionAnswer = {
      response_action: 'update',
      view: { ...approveModal, title: { type: 'plain_text', text: 'Step 2' } },
    };
    const updated = await sandbox.driver.submitView(ALICE, viewId, { reason: 'r', supplier: 'SUP-001' });
    expect(updated.responseAction).toBe('update');
    expect(sandbox.model.view(viewId)?.view.title).toEqual({ type: 'plain_text', text: 'Step 2' });
    submissionAnswer = {
      response_action: 'push',
      view: { ...approveModal, title: { type: 'plain_text', text: 'Step 3' } },
    };
    await sandbox.driver.submitView(ALICE, viewId, { reason: 'r', supplier: 'SUP-001' });
    expect(sandbox.model.openViews(ALICE).map((v) => v.view.title)).toEqual([
      { type: 'plain_text', text: 'Step 2' },
      { type: 'plain_text', text: 'Step 3' },
    ]);
    submissionAnswer = { response_action: 'clear' };
    const top = sandbox.model.openViews(ALICE)[1]?.id ?? '';
    await sandbox.driver.submitView(ALICE, top, { reason: 'r', supplier: 'SUP-001' });
    expect(sandbox.model.openViews(ALICE)).toEqual([]);
  });

  it('runs /parley with its answer shown only to the person, and opens Home', async () => {
    const command = await sandbox.driver.slashCommand(ALICE, CHANNEL, '/parley', 'help');
    expect(command.status).toBe(200);
    expect(seenOf('command')[0]?.body).toMatchObject({
      command: '/parley',
      text: 'help',
      user_id: ALICE,
      channel_id: CHANNEL,
    });
    const answers = sandbox.model.ephemerals(ALICE).filter((e) => e.source === 'command');
    expect(answers.map((e) => [e.text, e.channel])).toEqual([['Parley help for help', CHANNEL]]);
    expect(sandbox.model.ephemerals(BOB).filter((e) => e.source === 'command')).toEqual([]);

    await sandbox.driver.openHome(BOB);
    const home = await sandbox.waitFor(() => sandbox.model.home(BOB), { what: 'the home tab' });
    expect(home.view.blocks).toMatchObject([{ type: 'section', text: { text: 'Nothing waiting for you' } }]);
    expect(seenOf('home')[0]?.body).toMatchObject({ type: 'app_home_opened', user: BOB, tab: 'home' });
  });

  it('wrote every Web API call to the JSONL log, which the check accepts until a bad payload is sent', async () => {
    const lines = readFileSync(callLogPath, 'utf8').trim().split('\n');
    const methods = lines.map((l) => (JSON.parse(l) as { method: string }).method);
    expect(methods).toEqual(expect.arrayContaining(['auth.test', 'files.info', 'chat.postMessage', 'views.open']));
    expect(checkCallLog(callLogPath)).toEqual([]);

    // A section over 3000 characters: the sandbox refuses it (invalid_blocks) and the check names it.
    const refused = await app.client.chat
      .postMessage({
        channel: CHANNEL,
        text: 'too long',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }],
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    const problems = checkCallLog(callLogPath);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: lines.length + 1, method: 'chat.postMessage' });
    expect(problems[0]?.message).toMatch(/3001 chars, limit 3000/);
  });
});
