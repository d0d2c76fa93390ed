// A Prisma client that can only see one workspace. Services get this, not the raw client: every read, update and
// delete on a workspace-owned model is filtered on `workspaceId`, so an id from another workspace finds nothing, and
// a write that names another workspace is refused. Writes still spell out `workspaceId: db.$workspaceId` (Prisma's
// types require it, and it reads plainly) and use scalar foreign keys (`quotationId: …`).
import type { PrismaClient } from './client.js';

/** Models that are not owned by a workspace (the workspace itself). */
const UNSCOPED_MODELS: ReadonlySet<string> = new Set(['Workspace']);

const FILTERED_OPERATIONS: ReadonlySet<string> = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
]);

export class CrossWorkspaceWriteError extends Error {
  override name = 'CrossWorkspaceWriteError';
}

type Args = Record<string, unknown>;

export function scopeArgs(operation: string, args: Args, workspaceId: string): Args {
  const stamp = (data: unknown): Args => {
    const row = (data ?? {}) as Args;
    if (row.workspaceId !== undefined && row.workspaceId !== workspaceId) {
      throw new CrossWorkspaceWriteError(`Refusing to write a row of workspace ${String(row.workspaceId)}`);
    }
    return { ...row, workspaceId };
  };
  const where = { ...((args.where ?? {}) as Args), workspaceId };

  if (FILTERED_OPERATIONS.has(operation)) {
    const scoped: Args = { ...args, where };
    if (operation.startsWith('update') && args.data) {
      const data = args.data as Args;
      if (data.workspaceId !== undefined && data.workspaceId !== workspaceId) {
        throw new CrossWorkspaceWriteError('Refusing to move a row to another workspace');
      }
    }
    return scoped;
  }
  switch (operation) {
    case 'create':
      return { ...args, data: stamp(args.data) };
    case 'createMany':
    case 'createManyAndReturn': {
      const rows = Array.isArray(args.data) ? args.data : [args.data];
      return { ...args, data: rows.map(stamp) };
    }
    case 'upsert':
      return { ...args, where, create: stamp(args.create) };
    default:
      throw new Error(`Workspace scoping does not know the Prisma operation ${operation}`);
  }
}

export function scopeToWorkspace(prisma: PrismaClient, workspaceId: string) {
  return prisma.$extends({
    name: 'workspace-scope',
    client: { $workspaceId: workspaceId },
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          if (UNSCOPED_MODELS.has(model)) return query(args);
          return query(scopeArgs(operation, args as Args, workspaceId) as typeof args);
        },
      },
    },
  });
}

export type WorkspaceDb = ReturnType<typeof scopeToWorkspace>;

/** A transaction of the workspace's client: what a multi-row write, and the outbox rows reporting it, go through. */
export type WorkspaceTx = Parameters<Parameters<WorkspaceDb['$transaction']>[0]>[0];
