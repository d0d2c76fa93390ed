// The file-sharing logic that used to sit in the Parley facade: files.info and conversations.info, the spreadsheet
// filter, whose file it is (people of another organisation, the shortcut's asker), the thread to answer in (a file
// shared inside a thread keeps that thread), the claim, the size guard before downloading, and finding the file of a
// quotation to read again. Against a real (PGlite) database; Slack's files API is a fake.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace } from '../../db/seed.js';
import { QuotationError } from '../../quotation/errors.js';
import { SlackFileTimeoutError } from '../../slack/slack-files.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import {
  type ChannelFileShare,
  type SharedChannelInfo,
  type SharedFileInfo,
  type SlackFiles,
  sharedFileDownload,
} from './download-shared-file.js';
import { quotationToReread } from './read-quotation.js';
import {
  INVITE_PARLEY,
  receiveSlackFile,
  type ReceiveSlackFileOptions,
  recentChannelFiles,
} from './receive-shared-file.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';

const TEAM = 'T0RECEIVE1';
const OUTSIDE_TEAM = 'T0SUPPLIER';
const CHANNEL = 'C0RECEIVE1';
const SHARE_TS = '1767225600.000100';
const BUYER = 'U0BUYER001';
const APPROVER = 'U0APPROVE1';
const COLLEAGUE = 'U0COLLEAG1';
const SUPPLIER = 'U0SUPPLIE1';

let db: TestDatabase;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorkspace(db.prisma, { slackTeamId: TEAM, brandName: 'Valden Outdoor', catalog: [] });
  await db.prisma.workspace.update({ where: { slackTeamId: TEAM }, data: { settings: { approvers: [APPROVER] } } });
  const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({ MAX_UPLOAD_MB: '1' }), llm: null });
  const found = await contexts.forTeam(TEAM);
  if (!found) throw new Error('no workspace');
  ctx = found;
});
afterAll(() => db?.destroy());

function info(name: string, overrides: Partial<SharedFileInfo> = {}): SharedFileInfo {
  return {
    name,
    filetype: name.split('.').pop() ?? null,
    sizeBytes: 2048,
    sharedBy: BUYER,
    userTeam: TEAM,
    downloadUrl: `https://files.slack.com/files-pri/${name}`,
    share: (channelId) => (channelId === CHANNEL ? { ts: SHARE_TS, threadTs: SHARE_TS } : null),
    ...overrides,
  };
}

const MEMBER: SharedChannelInfo = { isMember: true, isIm: false, isExternal: false, connectedTeamIds: [] };

function fakeFiles(
  files: Record<string, SharedFileInfo>,
  channel: SharedChannelInfo = MEMBER,
  recent: ChannelFileShare[] = [],
) {
  return {
    info: vi.fn<SlackFiles['info']>(async (_workspaceId, fileId) => {
      const found = files[fileId];
      if (!found) throw new Error(`file_not_found: ${fileId}`);
      return found;
    }),
    download: vi.fn<SlackFiles['download']>(async () => Buffer.from('xlsx bytes')),
    channel: vi.fn<SlackFiles['channel']>(async () => channel),
    recentFiles: vi.fn<SlackFiles['recentFiles']>(async () => recent),
  } satisfies SlackFiles;
}

type More = Partial<Omit<ReceiveSlackFileOptions, 'files' | 'fileId'>>;

async function shared(fileId: string, files: SlackFiles, more: More = {}) {
  return receiveSlackFile(ctx, {
    files,
    fileId,
    channelId: CHANNEL,
    userId: BUYER,
    userTeamId: null,
    threadTs: null,
    messageTs: null,
    requestedBy: null,
    ...more,
  });
}

/** The claimed file, or a failed test naming what came back instead. */
async function claimed(fileId: string, files: SlackFiles, more: More = {}) {
  const result = await shared(fileId, files, more);
  if (!result.ok || !result.value) throw new Error(`not claimed: ${JSON.stringify(result)}`);
  return result.value;
}

const row = (fileId: string) => ctx.db.quotation.findFirst({ where: { slackFileId: fileId } });

describe('receiveSlackFile: a share Slack reported', () => {
  it('claims a spreadsheet once, threaded on its share in the channel', async () => {
    const files = fakeFiles({ F0RECV0001: info('quote.xlsx') });
    const first = await claimed('F0RECV0001', files);
    const again = await claimed('F0RECV0001', files);
    expect(first).toMatchObject({ fileId: 'F0RECV0001', isNew: true });
    expect(again).toMatchObject({ fileId: 'F0RECV0001', isNew: false, quotationId: first.quotationId });
    expect(await row('F0RECV0001')).toMatchObject({
      slackThreadTs: SHARE_TS,
      slackMessageTs: SHARE_TS,
      slackChannelExternal: false,
      uploadedBySlackUserId: BUYER,
      fileName: 'quote.xlsx',
      status: 'received',
    });
  });

  it('keeps the thread of a file shared inside a thread, and its own message for the 👀', async () => {
    const parent = '1767225000.000001';
    const reply = '1767225010.000002';
    // From the event (thread_ts) …
    await claimed('F0THREAD01', fakeFiles({ F0THREAD01: info('reply.xlsx') }), { threadTs: parent, messageTs: reply });
    // … and from files.info's share when the `file_shared` event (which names no thread) comes first.
    const inThread = info('reply2.xlsx', { share: () => ({ ts: reply, threadTs: parent }) });
    await claimed('F0THREAD02', fakeFiles({ F0THREAD02: inThread }));
    for (const fileId of ['F0THREAD01', 'F0THREAD02']) {
      expect(await row(fileId)).toMatchObject({ slackThreadTs: parent, slackMessageTs: reply });
    }
    const quotation = await row('F0THREAD02');
    const eyes = await ctx.db.slackOutbox.findFirst({ where: { dedupeKey: `q:${quotation?.id}:eyes` } });
    expect(eyes?.payload).toMatchObject({ name: 'eyes', timestamp: reply });
  });

  it('leaves other files alone unless someone asked for them', async () => {
    const files = fakeFiles({ F0RECV0002: info('scan.pdf') });
    expect(await shared('F0RECV0002', files)).toMatchObject({ ok: true, value: null });
    expect(await row('F0RECV0002')).toBeNull();
    expect(await shared('F0RECV0002', files, { requestedBy: { userId: BUYER, teamId: TEAM } })).toMatchObject({
      ok: true,
      value: { isNew: true },
    });
  });

  it('claims nothing when there is no message to thread on', async () => {
    const files = fakeFiles({ F0RECV0003: info('quote.xlsx', { share: () => null }) });
    expect(await shared('F0RECV0003', files)).toMatchObject({ ok: true, value: null });
    expect(await row('F0RECV0003')).toBeNull();
  });

  it('does not read a file someone of another organisation shared (from the event or files.info)', async () => {
    const fromOutside = info('their-quote.xlsx', { sharedBy: SUPPLIER, userTeam: OUTSIDE_TEAM });
    const files = fakeFiles({ F0OUTSIDE1: fromOutside });
    expect(await shared('F0OUTSIDE1', files, { userId: SUPPLIER, userTeamId: OUTSIDE_TEAM })).toMatchObject({
      ok: true,
      value: null,
    });
    expect(await shared('F0OUTSIDE1', files, { userId: SUPPLIER })).toMatchObject({ ok: true, value: null });
    expect(await row('F0OUTSIDE1')).toBeNull();
  });

  it('does not read a file shared in a direct message with Parley', async () => {
    const files = fakeFiles(
      { F0INADM001: info('dm.xlsx') },
      { isMember: true, isIm: true, isExternal: false, connectedTeamIds: [] },
    );
    expect(await shared('F0INADM001', files)).toMatchObject({ ok: true, value: null });
    expect(await row('F0INADM001')).toBeNull();
  });

  it('remembers that the channel is shared with another organisation', async () => {
    const files = fakeFiles(
      { F0EXTCHAN1: info('shared.xlsx') },
      { isMember: true, isIm: false, isExternal: true, connectedTeamIds: [] },
    );
    await claimed('F0EXTCHAN1', files);
    expect(await row('F0EXTCHAN1')).toMatchObject({ slackChannelExternal: true, uploadedBySlackUserId: BUYER });
  });

  it('downloads with what files.info said, only when the reader asks', async () => {
    const files = fakeFiles({ F0RECV0004: info('later.xlsx') });
    const received = await claimed('F0RECV0004', files);
    expect(files.download).not.toHaveBeenCalled();
    await received.download();
    expect(files.info).toHaveBeenCalledTimes(1);
    expect(files.download).toHaveBeenCalledWith(
      ctx.workspace.id,
      'https://files.slack.com/files-pri/later.xlsx',
      ctx.limits.maxBytes,
    );
  });
});

describe('receiveSlackFile: someone asked (the shortcut, /parley negotiate)', () => {
  const asked = (userId: string, teamId: string | null = TEAM) => ({ requestedBy: { userId, teamId } });

  it('makes the file’s uploader the buyer, whoever of them and the approvers asked', async () => {
    const files = fakeFiles({ F0ASK00001: info('a.xlsx'), F0ASK00002: info('b.xlsx') });
    expect(await shared('F0ASK00001', files, asked(APPROVER))).toMatchObject({ ok: true, value: { isNew: true } });
    expect(await shared('F0ASK00002', files, { ...asked(BUYER), userId: null })).toMatchObject({ ok: true });
    for (const fileId of ['F0ASK00001', 'F0ASK00002']) {
      expect(await row(fileId)).toMatchObject({ uploadedBySlackUserId: BUYER });
    }
  });

  it('refuses a colleague who neither shared it nor approves', async () => {
    const files = fakeFiles({ F0ASK00003: info('c.xlsx') });
    const result = await shared('F0ASK00003', files, asked(COLLEAGUE));
    expect(result).toMatchObject({ ok: false, error: 'not_allowed', message: expect.stringContaining(`<@${BUYER}>`) });
    expect(await row('F0ASK00003')).toBeNull();
  });

  it('refuses someone of another organisation, before asking Slack anything', async () => {
    const files = fakeFiles({ F0ASK00004: info('d.xlsx') });
    const result = await shared('F0ASK00004', files, asked(BUYER, OUTSIDE_TEAM));
    expect(result).toMatchObject({ ok: false, error: 'not_allowed' });
    expect(files.info).not.toHaveBeenCalled();
  });

  it('makes the approver who asked the buyer of a supplier’s file from a shared channel', async () => {
    const fromOutside = info('supplier.xlsx', { sharedBy: SUPPLIER, userTeam: OUTSIDE_TEAM });
    const files = fakeFiles(
      { F0ASK00005: fromOutside },
      { isMember: true, isIm: false, isExternal: true, connectedTeamIds: [] },
    );
    expect(await shared('F0ASK00005', files, { ...asked(COLLEAGUE), userId: SUPPLIER })).toMatchObject({
      ok: false,
      error: 'not_allowed',
    });
    await claimed('F0ASK00005', files, { ...asked(APPROVER), userId: SUPPLIER });
    expect(await row('F0ASK00005')).toMatchObject({ uploadedBySlackUserId: APPROVER, slackChannelExternal: true });
  });

  it('says how to invite Parley where it is not a member, and claims nothing', async () => {
    const files = fakeFiles(
      { F0ASK00006: info('e.xlsx') },
      { isMember: false, isIm: false, isExternal: false, connectedTeamIds: [] },
    );
    expect(await shared('F0ASK00006', files, asked(BUYER))).toMatchObject({ ok: false, message: INVITE_PARLEY });
    expect(INVITE_PARLEY).toContain('/invite @Parley');
    expect(await row('F0ASK00006')).toBeNull();
  });

  it('says a file was read already, with a link to its thread', async () => {
    const files = fakeFiles({ F0ASK00007: info('f.xlsx') });
    await claimed('F0ASK00007', files);
    const again = await shared('F0ASK00007', files, asked(BUYER));
    expect(again).toMatchObject({
      ok: false,
      error: 'conflict',
      message: expect.stringContaining(`https://slack.com/archives/${CHANNEL}/p${SHARE_TS.replace('.', '')}`),
    });
  });

  it('refuses a file that is not shared in the channel it was asked about', async () => {
    const files = fakeFiles({ F0ASK00008: info('g.xlsx', { share: () => null }) });
    expect(await shared('F0ASK00008', files, asked(BUYER))).toMatchObject({ ok: false, error: 'not_found' });
  });
});

describe('recentChannelFiles', () => {
  const recent = (fileId: string, name: string, ts: string): ChannelFileShare => ({
    fileId,
    name,
    filetype: name.split('.').pop() ?? null,
    userId: BUYER,
    ts,
  });

  it('offers the channel’s recent spreadsheets, newest first, marking those read with their thread', async () => {
    await claimed('F0RECENT01', fakeFiles({ F0RECENT01: info('old.xlsx') }));
    const files = fakeFiles({}, MEMBER, [
      recent('F0RECENT02', 'new.xlsx', '1767229000.000001'),
      recent('F0RECENTPD', 'scan.pdf', '1767228000.000001'),
      recent('F0RECENT01', 'old.xlsx', '1767225600.000100'),
    ]);
    const result = await recentChannelFiles(ctx, { files, channelId: CHANNEL });
    expect(result).toMatchObject({
      ok: true,
      value: [
        { fileId: 'F0RECENT02', name: 'new.xlsx', sharedBy: BUYER, readInThread: null },
        { fileId: 'F0RECENT01', readInThread: expect.stringContaining(`/archives/${CHANNEL}/`) },
      ],
    });
  });

  it('says how to invite Parley where it is not a member, without reading the history', async () => {
    const files = fakeFiles({}, { isMember: false, isIm: false, isExternal: false, connectedTeamIds: [] });
    expect(await recentChannelFiles(ctx, { files, channelId: CHANNEL })).toMatchObject({
      ok: false,
      message: INVITE_PARLEY,
    });
    expect(files.recentFiles).not.toHaveBeenCalled();
  });
});

describe('sharedFileDownload', () => {
  it('refuses a file files.info says is over the limit, without downloading it', async () => {
    const files = fakeFiles({});
    const download = sharedFileDownload(ctx, {
      files,
      fileId: 'F0HUGE0001',
      info: info('huge.xlsx', { sizeBytes: ctx.limits.maxBytes + 1 }),
    });
    const error = await download().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotationError);
    expect(error).toMatchObject({ code: 'too_large' });
    expect(files.download).not.toHaveBeenCalled();
  });

  it('fails plainly when Slack gives no download URL', async () => {
    const download = sharedFileDownload(ctx, {
      files: fakeFiles({}),
      fileId: 'F0NOURL001',
      info: info('x.xlsx', { downloadUrl: null }),
    });
    await expect(download()).rejects.toThrow('files.info gave no download URL for F0NOURL001');
  });

  it('turns Slack taking too long (files.info or the download) into a reply asking to share the file again', async () => {
    for (const step of ['info', 'download'] as const) {
      const files = fakeFiles({ F0SLOW0001: info('slow.xlsx') });
      files[step].mockRejectedValueOnce(new SlackFileTimeoutError(step, 30_000));
      const error = await sharedFileDownload(ctx, { files, fileId: 'F0SLOW0001' })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QuotationError);
      expect(error).toMatchObject({ code: 'download_timeout', userMessage: expect.stringMatching(/30 seconds/) });
    }
  });
});

describe('quotationToReread', () => {
  it('finds the quotation’s Slack file; files.info is asked only when the reader downloads', async () => {
    const files = fakeFiles({ F0RECV0007: info('again.xlsx') });
    const received = await claimed('F0RECV0007', files);
    files.info.mockClear();
    const reread = await quotationToReread(ctx, { quotationId: received.quotationId, files });
    expect(reread?.fileId).toBe('F0RECV0007');
    expect(files.info).not.toHaveBeenCalled();
    await reread?.download();
    expect(files.info).toHaveBeenCalledWith(ctx.workspace.id, 'F0RECV0007');
  });

  it('finds nothing for a quotation that is gone', async () => {
    expect(await quotationToReread(ctx, { quotationId: 'clmissing000000000000000', files: fakeFiles({}) })).toBeNull();
  });
});
