// `/parley settings` saved: only by an approver or a Slack workspace admin, only over the version the person saw (the
// modal carries it), and audited with what was there before and what is there after. Every other writer of the
// settings (the first approvers) goes through `writeSettings` too, so each change bumps the version and is audited.
import { writeAudit } from '../../db/audit.js';
import type { WorkspaceDb } from '../../db/scoped.js';
import { toJsonColumn } from '../../db/json.js';
import { done, refused, type ServiceResult } from '../outcome.js';
import type { ServiceContext } from '../service-context.js';
import {
  mayChangeSettings,
  type StoredWorkspaceSettings,
  storedSettings,
  workspaceSettingsSchema,
} from './workspace-settings.js';

export const NOT_SETTINGS_ADMIN =
  'Only Parley’s approvers and this Slack workspace’s admins can change Parley’s settings.';
export const STALE_SETTINGS =
  'Someone changed Parley’s settings while you had them open, so yours were not saved. Close this and run ' +
  '/parley settings again to see the current ones.';

/** What the settings modal submits: the stored settings and the brand's name. */
export type SettingsChange = Required<StoredWorkspaceSettings> & { brandName: string };

export interface ChangeSettingsOptions {
  by: string;
  values: SettingsChange;
  /** The settings version the modal was built from. */
  basedOnVersion: number;
}

/** Who may open the settings, and the version and values they start from. */
export async function settingsForEditing(
  ctx: ServiceContext,
  by: string,
): Promise<ServiceResult<{ version: number; brandName: string }>> {
  if (!(await mayChangeSettings(ctx.workspace, by, ctx.directory))) {
    return refused('not_allowed', NOT_SETTINGS_ADMIN);
  }
  const row = await ctx.db.workspace.findUniqueOrThrow({
    where: { id: ctx.workspace.id },
    select: { settingsVersion: true, brandName: true },
  });
  return done({ version: row.settingsVersion, brandName: row.brandName }, false);
}

export async function changeSettings(ctx: ServiceContext, options: ChangeSettingsOptions): Promise<ServiceResult> {
  if (!(await mayChangeSettings(ctx.workspace, options.by, ctx.directory))) {
    return refused('not_allowed', NOT_SETTINGS_ADMIN);
  }
  const row = await ctx.db.workspace.findUniqueOrThrow({ where: { id: ctx.workspace.id } });
  if (row.settingsVersion !== options.basedOnVersion) return refused('conflict', STALE_SETTINGS);

  const { brandName, ...settings } = options.values;
  const before = { brandName: row.brandName, settings: storedSettings(row.settings) };
  const after = {
    brandName: brandName.trim() || row.brandName,
    settings: workspaceSettingsSchema.parse({ ...before.settings, ...settings }),
  };
  if (JSON.stringify(before) === JSON.stringify(after)) return done(undefined, false);

  const written = await writeSettings(ctx.db, {
    workspaceId: ctx.workspace.id,
    basedOnVersion: options.basedOnVersion,
    before,
    after,
    actorSlackUserId: options.by,
    source: 'settings_modal',
  });
  return written ? done(undefined) : refused('conflict', STALE_SETTINGS);
}

export interface SettingsWrite {
  workspaceId: string;
  basedOnVersion: number;
  before: { brandName: string; settings: StoredWorkspaceSettings };
  after: { brandName: string; settings: StoredWorkspaceSettings };
  /** Null for the environment (APPROVER_SLACK_IDS). */
  actorSlackUserId: string | null;
  source: string;
}

/**
 * Writes settings only over `basedOnVersion` and audits the change, in one transaction. False when the settings
 * moved on meanwhile (nothing written): the caller decides whether that is a refusal or nothing to do.
 */
export async function writeSettings(db: WorkspaceDb, write: SettingsWrite): Promise<boolean> {
  const written = await db.$transaction(async (tx) => {
    const { count } = await tx.workspace.updateMany({
      where: { id: write.workspaceId, settingsVersion: write.basedOnVersion },
      data: {
        brandName: write.after.brandName,
        settings: toJsonColumn(write.after.settings),
        settingsVersion: { increment: 1 },
      },
    });
    if (count === 0) return false;
    await writeAudit(tx, write.actorSlackUserId, {
      action: 'settings.changed',
      entityType: 'Workspace',
      entityId: write.workspaceId,
      data: { source: write.source, version: write.basedOnVersion + 1, before: write.before, after: write.after },
    });
    return true;
  });
  // After the commit: a read of the workspace made before it is not served again (service-context.ts).
  if (written) settingsWrites += 1;
  return written;
}

let settingsWrites = 0;

/** Moves on with every settings change this process commits (approvers, brand, thresholds). */
export function settingsEpoch(): number {
  return settingsWrites;
}
