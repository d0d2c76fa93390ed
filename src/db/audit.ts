// The audit log: who did what, when. One way to write an entry, in the transaction of the change it records, so an
// entry exists exactly when its change does.
import type { Prisma } from '../generated/prisma/client.js';
import { toJsonColumn } from './json.js';

/** What an audit entry is written through: a workspace-scoped transaction, or a plain one naming the workspace. */
export interface AuditWriter {
  auditLog: { create(args: { data: Prisma.AuditLogUncheckedCreateInput }): Promise<unknown> };
  readonly $workspaceId?: string;
}

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId: string;
  data?: Record<string, unknown>;
  /** Only where the transaction is not scoped to a workspace (creating the workspace itself). */
  workspaceId?: string;
}

/** An AuditLog row; `actor` null for the system. */
export async function writeAudit(tx: AuditWriter, actor: string | null, entry: AuditEntry): Promise<void> {
  const workspaceId = entry.workspaceId ?? tx.$workspaceId;
  if (!workspaceId) throw new Error(`audit entry ${entry.action} names no workspace`);
  await tx.auditLog.create({
    data: {
      workspaceId,
      actorSlackUserId: actor,
      actorKind: actor === null ? 'system' : 'user',
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      data: toJsonColumn(entry.data ?? {}),
    },
  });
}
