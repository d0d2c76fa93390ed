// Every Slack shape of a shared file, through the real Bolt receiver against the stand-in: a file shared inside a
// thread, a direct message to Parley, a Slack Connect channel (an external person's file, the channel's flag and the
// start modal's confirmation), the message shortcut (whose file it is, who may ask, where Parley is not, a file read
// already) and `/parley negotiate` (no thread: a link, or a pick among the channel's recent spreadsheets).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION, BLOCK, CALLBACK, fileRefCodec, SLASH_COMMAND } from '../../src/slack/ids.js';

const running = useSandboxedParley();

const SUPPLIER = { id: 'U0SUPPLY01', name: 'wen', realName: 'Wen Li', isBot: false, teamId: 'T0SUPPLIER' };
const SHARED_CHANNEL = 'C0CONNECT1';
const NEW_CHANNEL = 'C0NOPARLEY';

const sample = () => readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
const pdf = Buffer.from('%PDF-1.4\n% a scanned quotation\n');

const quotationOf = (fileId: string) => running.db.prisma.quotation.findFirst({ where: { slackFileId: fileId } });

function standIn() {
  return running.parley.sandbox;
}

/** The newest ephemeral a person got, once it matches. */
function ephemeralFor(userId: string, pattern: RegExp, what: string) {
  const { model } = standIn();
  return standIn().waitFor(
    () =>
      model
        .ephemerals(userId)
        .filter((e) => pattern.test(`${e.text} ${JSON.stringify(e.blocks ?? [])}`))
        .at(-1),
    { what },
  );
}

describe('a file shared inside an existing thread', () => {
  it('is read in that thread: the status card goes there, the 👀 on the file’s own reply', async () => {
    const { driver, model } = standIn();
    const parent = await driver.postMessage(PEOPLE.buyer.id, CHANNEL.id, 'Spring quotes coming in below');
    const shared = await driver.shareFileInThread(PEOPLE.buyer.id, CHANNEL.id, parent.ts, {
      name: 'in-thread.xlsx',
      bytes: await sample(),
    });
    await running.parley.settle();
    const quotation = await quotationOf(shared.fileId);
    expect(quotation).toMatchObject({ slackThreadTs: parent.ts, slackMessageTs: shared.ts });
    const fromParley = model.thread(CHANNEL.id, parent.ts).filter((m) => m.user === model.botUserId);
    expect(fromParley.length).toBeGreaterThan(0);
    expect(model.message(CHANNEL.id, shared.ts)?.reactions.map((r) => r.name)).toContain('eyes');
  });
});

describe('a direct message to Parley', () => {
  it('gets a short help answer in the DM, and nothing is read', async () => {
    const { driver, model } = standIn();
    const before = await running.db.prisma.quotation.count();
    const dm = await driver.sendDirectMessage(PEOPLE.colleague.id, 'can you read my quote?');
    await running.parley.settle();
    const answer = await standIn().waitFor(() => model.topLevel(dm.channel).find((m) => m.user === model.botUserId), {
      what: 'the DM help',
    });
    expect(answer.text).toMatch(/channel/);
    expect(JSON.stringify(answer.blocks)).toContain('/invite @Parley');
    expect(await running.db.prisma.quotation.count()).toBe(before);
  });
});

describe('a Slack Connect channel', () => {
  it('reads nothing an external person shares, and flags a colleague’s quotation so the start modal asks first', async () => {
    const { driver, model } = standIn();
    model.addUser(SUPPLIER);
    // Hosted by the supplier's org: the envelope's top-level team_id is theirs, the context team Parley's.
    model.addChannel({
      id: SHARED_CHANNEL,
      name: 'valden-x-supplier',
      isPrivate: false,
      members: [PEOPLE.buyer.id, PEOPLE.approver.id, SUPPLIER.id, model.botUserId],
      sharedWith: { teamId: SUPPLIER.teamId, hostedByExternal: true },
    });

    const theirs = await driver.shareFile(SUPPLIER.id, SHARED_CHANNEL, {
      name: 'supplier.xlsx',
      bytes: await sample(),
    });
    await running.parley.settle();
    expect(await quotationOf(theirs.fileId)).toBeNull();

    // The buyer's own share is read; the start modal asks for the tick (Slack submits it only ticked).
    const story = await playStory(running.parley, {
      file: { name: 'ours.xlsx', bytes: await sample() },
      channelId: SHARED_CHANNEL,
      start: { [BLOCK.startExternalConfirm]: ['post_here'] },
      stopBeforeApproval: true,
    });
    const quotation = await running.db.prisma.quotation.findFirstOrThrow({
      where: { slackChannelId: SHARED_CHANNEL, slackThreadTs: story.threadTs },
      include: { negotiation: { select: { id: true } } },
    });
    expect(quotation).toMatchObject({ slackChannelExternal: true, uploadedBySlackUserId: PEOPLE.buyer.id });
    expect(quotation.negotiation).not.toBeNull();
    const startModals = model.calls.filter(
      (c) => c.method.startsWith('views.') && JSON.stringify(c.args).includes(CALLBACK.startModal),
    );
    expect(JSON.stringify(startModals.map((c) => c.args))).toContain(BLOCK.startExternalConfirm);
  });

  it('refuses an external person’s click on Parley’s buttons, privately, and reads nothing for them', async () => {
    const { driver, model } = standIn();
    // The supplier clicks the Negotiate button of an unread file (as a message Parley posted there would carry it):
    // a block_actions payload as Slack sends it, the clicker's own org in user.team_id.
    const file = await driver.shareFile(PEOPLE.buyer.id, SHARED_CHANNEL, { name: 'scan.pdf', bytes: pdf });
    const response = await driver.sendInteraction({
      type: 'block_actions',
      user: { id: SUPPLIER.id, username: SUPPLIER.name, name: SUPPLIER.name, team_id: SUPPLIER.teamId },
      api_app_id: model.appId,
      token: 'sandbox-verification-token',
      trigger_id: model.issueTrigger(SUPPLIER.id),
      team: { id: model.teamId, domain: model.teamDomain },
      enterprise: null,
      is_enterprise_install: false,
      container: { type: 'message', message_ts: file.ts, channel_id: SHARED_CHANNEL, is_ephemeral: false },
      channel: { id: SHARED_CHANNEL, name: 'valden-x-supplier' },
      message: { type: 'message', ts: file.ts, user: PEOPLE.buyer.id, text: '' },
      state: { values: {} },
      actions: [
        {
          type: 'button',
          action_id: ACTION.negotiateFile,
          block_id: 'negotiate',
          value: fileRefCodec.encode({ f: file.fileId }),
          text: { type: 'plain_text', text: 'Negotiate' },
          action_ts: '1767225700.000300',
        },
      ],
    });
    expect(response.status).toBe(200);
    await ephemeralFor(SUPPLIER.id, /Only people of the workspace/, 'the refusal');
    await running.parley.settle();
    expect(await quotationOf(file.fileId)).toBeNull();
  });
});

describe('the message shortcut “Negotiate this quote”', () => {
  it('reads the message author’s file for them or an approver, and refuses a colleague', async () => {
    const { driver } = standIn();
    const scan = await driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, { name: 'scan.pdf', bytes: pdf });
    await running.parley.settle();
    expect(await quotationOf(scan.fileId)).toBeNull(); // not a spreadsheet: read only when someone asks

    await driver.messageShortcut(PEOPLE.colleague.id, { channel: CHANNEL.id, ts: scan.ts }, CALLBACK.negotiateShortcut);
    await ephemeralFor(PEOPLE.colleague.id, /approvers can ask/, 'the refusal');
    expect(await quotationOf(scan.fileId)).toBeNull();

    await driver.messageShortcut(PEOPLE.approver.id, { channel: CHANNEL.id, ts: scan.ts }, CALLBACK.negotiateShortcut);
    await running.parley.settle();
    expect(await quotationOf(scan.fileId)).toMatchObject({
      uploadedBySlackUserId: PEOPLE.buyer.id,
      slackThreadTs: scan.ts,
    });

    // Asked again: already read, with a link to its thread.
    await driver.messageShortcut(PEOPLE.buyer.id, { channel: CHANNEL.id, ts: scan.ts }, CALLBACK.negotiateShortcut);
    const already = await ephemeralFor(PEOPLE.buyer.id, /read that file already/, 'the already-read answer');
    expect(already.text).toContain(`/archives/${CHANNEL.id}/p${scan.ts.replace('.', '')}`);
  });

  it('says how to invite Parley in a channel it is not in, and reads nothing there', async () => {
    const { driver, model } = standIn();
    model.addChannel({ id: NEW_CHANNEL, name: 'new-suppliers', isPrivate: false, members: [PEOPLE.buyer.id] });
    const file = await driver.shareFile(PEOPLE.buyer.id, NEW_CHANNEL, { name: 'early.xlsx', bytes: await sample() });
    await driver.messageShortcut(PEOPLE.buyer.id, { channel: NEW_CHANNEL, ts: file.ts }, CALLBACK.negotiateShortcut);
    const told = await ephemeralFor(PEOPLE.buyer.id, /invite @Parley/, 'the invite hint');
    expect(told.channel).toBe(NEW_CHANNEL);
    expect(await quotationOf(file.fileId)).toBeNull();
  });
});

describe('/parley negotiate (never in a thread)', () => {
  it('offers the channel’s recent spreadsheets once Parley is invited, and reads the one clicked', async () => {
    const { driver, model } = standIn();
    // Shared before Parley joined: no event reached it.
    const before = model.topLevel(NEW_CHANNEL).filter((m) => m.fileIds.length > 0);
    model.setBotMember(NEW_CHANNEL, true);
    await driver.slashCommand(PEOPLE.buyer.id, NEW_CHANNEL, SLASH_COMMAND, 'negotiate');
    const choices = await ephemeralFor(PEOPLE.buyer.id, /Which quotation/, 'the choices');
    const fileId = before[0]?.fileIds[0];
    if (!fileId) throw new Error('no file shared before Parley joined');
    expect(JSON.stringify(choices.blocks)).toContain('early.xlsx');

    await driver.clickButton(PEOPLE.buyer.id, { channel: NEW_CHANNEL, ts: choices.ts }, ACTION.negotiateFile);
    await running.parley.settle();
    expect(await quotationOf(fileId)).toMatchObject({
      uploadedBySlackUserId: PEOPLE.buyer.id,
      slackChannelId: NEW_CHANNEL,
      slackThreadTs: before[0]?.ts,
    });
  });

  it('reads the file its link names', async () => {
    const { driver, model } = standIn();
    model.setBotMember(NEW_CHANNEL, false);
    const file = await driver.shareFile(PEOPLE.buyer.id, NEW_CHANNEL, { name: 'linked.xlsx', bytes: await sample() });
    model.setBotMember(NEW_CHANNEL, true);
    const link = `https://${model.teamDomain}.slack.com/files/${PEOPLE.buyer.id}/${file.fileId}/linked.xlsx`;
    await driver.slashCommand(PEOPLE.approver.id, NEW_CHANNEL, SLASH_COMMAND, `negotiate ${link}`);
    await running.parley.settle();
    expect(await quotationOf(file.fileId)).toMatchObject({ uploadedBySlackUserId: PEOPLE.buyer.id });
  });
});
