// The file-sharing logic that used to sit in the Parley facade: files.info, the spreadsheet filter, the thread to
// answer in, the claim, the size guard before downloading, and finding the file of a quotation to read again. Against
// a real (PGlite) database; Slack's files API is a fake.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../../config/env.js';
import { seedWorkspace } from '../../db/seed.js';
import { QuotationError } from '../../quotation/errors.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { type SharedFileInfo, type SlackFiles, sharedFileDownload } from './download-shared-file.js';
import { quotationToReread } from './read-quotation.js';
import { receiveFilesOfMessage, receiveSlackFile } from './receive-shared-file.js';
import { createContextFactory, type ServiceContext } from '../service-context.js';

const TEAM = 'T0RECEIVE1';
const CHANNEL = 'C0RECEIVE1';
const SHARE_TS = '1767225600.000100';

let db: TestDatabase;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedWorkspace(db.prisma, { slackTeamId: TEAM, brandName: 'Valden Outdoor', catalog: [] });
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
    downloadUrl: `https://files.slack.com/files-pri/${name}`,
    shareTs: (channelId) => (channelId === CHANNEL ? SHARE_TS : null),
    ...overrides,
  };
}

function fakeFiles(files: Record<string, SharedFileInfo>, onMessage: string[] = []) {
  return {
    info: vi.fn<SlackFiles['info']>(async (_workspaceId, fileId) => {
      const found = files[fileId];
      if (!found) throw new Error(`file_not_found: ${fileId}`);
      return found;
    }),
    download: vi.fn<SlackFiles['download']>(async () => Buffer.from('xlsx bytes')),
    filesOfMessage: vi.fn<SlackFiles['filesOfMessage']>(async () => onMessage),
  } satisfies SlackFiles;
}

const shared = (fileId: string, files: SlackFiles, more: { explicit?: boolean; threadTs?: string | null } = {}) =>
  receiveSlackFile(ctx, {
    files,
    fileId,
    channelId: CHANNEL,
    userId: 'U0BUYER001',
    threadTs: more.threadTs ?? null,
    explicit: more.explicit ?? false,
  });

describe('receiveSlackFile', () => {
  it('claims a spreadsheet once, threaded on its share in the channel', async () => {
    const files = fakeFiles({ F0RECV0001: info('quote.xlsx') });
    const first = await shared('F0RECV0001', files);
    const again = await shared('F0RECV0001', files);
    expect(first).toMatchObject({ fileId: 'F0RECV0001', isNew: true });
    expect(again).toMatchObject({ fileId: 'F0RECV0001', isNew: false, quotationId: first?.quotationId });
    const row = await ctx.db.quotation.findUniqueOrThrow({ where: { id: first?.quotationId ?? '' } });
    expect(row).toMatchObject({ slackThreadTs: SHARE_TS, fileName: 'quote.xlsx', status: 'received' });
  });

  it('leaves other files alone unless someone asked for them', async () => {
    const files = fakeFiles({ F0RECV0002: info('scan.pdf') });
    expect(await shared('F0RECV0002', files)).toBeNull();
    expect(await ctx.db.quotation.count({ where: { slackFileId: 'F0RECV0002' } })).toBe(0);
    expect(await shared('F0RECV0002', files, { explicit: true, threadTs: '1767225999.000001' })).toMatchObject({
      isNew: true,
    });
  });

  it('claims nothing when there is no message to thread on', async () => {
    const files = fakeFiles({ F0RECV0003: info('quote.xlsx', { shareTs: () => null }) });
    expect(await shared('F0RECV0003', files)).toBeNull();
    expect(await ctx.db.quotation.count({ where: { slackFileId: 'F0RECV0003' } })).toBe(0);
  });

  it('downloads with what files.info said, only when the reader asks', async () => {
    const files = fakeFiles({ F0RECV0004: info('later.xlsx') });
    const received = await shared('F0RECV0004', files);
    expect(files.download).not.toHaveBeenCalled();
    await received?.download();
    expect(files.info).toHaveBeenCalledTimes(1);
    expect(files.download).toHaveBeenCalledWith(
      ctx.workspace.id,
      'https://files.slack.com/files-pri/later.xlsx',
      ctx.limits.maxBytes,
    );
  });
});

describe('receiveFilesOfMessage', () => {
  it('claims every file of the message, whatever its type, threaded on that message', async () => {
    const files = fakeFiles({ F0RECV0005: info('a.xlsx'), F0RECV0006: info('b.pdf') }, ['F0RECV0005', 'F0RECV0006']);
    const received = await receiveFilesOfMessage(ctx, {
      files,
      channelId: CHANNEL,
      messageTs: '1767226000.000200',
      userId: 'U0BUYER001',
    });
    expect(files.filesOfMessage).toHaveBeenCalledWith(ctx.workspace.id, CHANNEL, '1767226000.000200');
    expect(received.map((r) => [r.fileId, r.isNew])).toEqual([
      ['F0RECV0005', true],
      ['F0RECV0006', true],
    ]);
    const rows = await ctx.db.quotation.findMany({ where: { slackFileId: { in: ['F0RECV0005', 'F0RECV0006'] } } });
    expect(rows.map((r) => r.slackThreadTs)).toEqual(['1767226000.000200', '1767226000.000200']);
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
});

describe('quotationToReread', () => {
  it('finds the quotation’s Slack file; files.info is asked only when the reader downloads', async () => {
    const files = fakeFiles({ F0RECV0007: info('again.xlsx') });
    const received = await shared('F0RECV0007', files);
    files.info.mockClear();
    const reread = await quotationToReread(ctx, { quotationId: received?.quotationId ?? '', files });
    expect(reread?.fileId).toBe('F0RECV0007');
    expect(files.info).not.toHaveBeenCalled();
    await reread?.download();
    expect(files.info).toHaveBeenCalledWith(ctx.workspace.id, 'F0RECV0007');
  });

  it('finds nothing for a quotation that is gone', async () => {
    expect(await quotationToReread(ctx, { quotationId: 'clmissing000000000000000', files: fakeFiles({}) })).toBeNull();
  });
});
