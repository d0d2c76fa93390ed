import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env } from '../config/env.js';
import { CrossWorkspaceWriteError, scopeToWorkspace, type WorkspaceDb } from './scoped.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

describe('workspace scoping', () => {
  let db: TestDatabase;
  let a: WorkspaceDb;
  let b: WorkspaceDb;
  let quotationOfB: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const [workspaceA, workspaceB] = await Promise.all([
      db.prisma.workspace.create({ data: { slackTeamId: 'TAAAA', name: 'A', brandName: 'Brand A' } }),
      db.prisma.workspace.create({ data: { slackTeamId: 'TBBBB', name: 'B', brandName: 'Brand B' } }),
    ]);
    a = scopeToWorkspace(db.prisma, workspaceA.id);
    b = scopeToWorkspace(db.prisma, workspaceB.id);
    const quotation = (scope: WorkspaceDb, file: string) =>
      scope.quotation.create({
        data: {
          workspaceId: scope.$workspaceId,
          slackFileId: file,
          slackChannelId: 'C1',
          uploadedBySlackUserId: 'U1',
          fileName: `${file}.xlsx`,
        },
      });
    await quotation(a, 'F-A1');
    await quotation(a, 'F-A2');
    quotationOfB = (await quotation(b, 'F-B1')).id;
  });
  afterAll(async () => {
    await db.destroy();
  });

  it('runs on the backend the environment asks for', () => {
    expect(db.kind).toBe(env.DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('lists only the workspace’s own rows', async () => {
    const files = (await a.quotation.findMany({ orderBy: { slackFileId: 'asc' } })).map((q) => q.slackFileId);
    expect(files).toEqual(['F-A1', 'F-A2']);
    expect(await b.quotation.count()).toBe(1);
    expect(await a.quotation.count({ where: { slackChannelId: 'C1' } })).toBe(2);
  });

  it('finds nothing by an id that belongs to another workspace', async () => {
    expect(await a.quotation.findUnique({ where: { id: quotationOfB } })).toBeNull();
    expect(await a.quotation.findFirst({ where: { slackFileId: 'F-B1' } })).toBeNull();
    expect(await b.quotation.findUnique({ where: { id: quotationOfB } })).not.toBeNull();
  });

  it('cannot change or delete another workspace’s rows', async () => {
    const { count } = await a.quotation.updateMany({ where: { id: quotationOfB }, data: { status: 'failed' } });
    expect(count).toBe(0);
    await expect(a.quotation.update({ where: { id: quotationOfB }, data: { status: 'failed' } })).rejects.toThrow();
    expect((await a.quotation.deleteMany({ where: { id: quotationOfB } })).count).toBe(0);
    expect((await b.quotation.findUniqueOrThrow({ where: { id: quotationOfB } })).status).toBe('received');
  });

  it('refuses to write a row into another workspace', async () => {
    const foreign = (await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: 'TBBBB' } })).id;
    await expect(
      a.auditLog.create({
        data: { workspaceId: foreign, actorKind: 'user', action: 'x', entityType: 'quotation', entityId: 'q' },
      }),
    ).rejects.toThrow(CrossWorkspaceWriteError);
  });

  it('keeps the scope inside an interactive transaction, and rolls the transaction back on error', async () => {
    await expect(
      a.$transaction(async (tx) => {
        await tx.auditLog.create({
          data: {
            workspaceId: a.$workspaceId,
            actorKind: 'system',
            action: 'rolled-back',
            entityType: 'quotation',
            entityId: 'q',
          },
        });
        expect(await tx.quotation.findUnique({ where: { id: quotationOfB } })).toBeNull();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.prisma.auditLog.count({ where: { action: 'rolled-back' } })).toBe(0);
  });
});
