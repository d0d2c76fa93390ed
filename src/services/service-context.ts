// What every service gets: the workspace it acts in (its scoped database, its brand and settings), Claude when a key
// is set, the file-reading limits and a clock. Built once per request by the Slack layer (or a job) from the team id.
import type { CatalogRanker } from '../catalog/matcher.js';
import type { Env } from '../config/env.js';
import type { PrismaClient } from '../db/client.js';
import { scopeToWorkspace, type WorkspaceDb } from '../db/scoped.js';
import type { Llm } from '../llm/llm.js';
import type { ReadLimits } from '../quotation/errors.js';
import { readLimitsFrom } from '../quotation/xlsx-reader.js';
import {
  type GridReader,
  readGridInProcess,
  readSheetsInProcess,
  type SheetReader,
} from '../quotation/sheet-reader.js';
import { type Compute, computeInProcess } from '../worker/compute.js';
import { settingsEpoch } from './workspace/change-settings.js';
import { recentReads } from './workspace/recent-reads.js';
import {
  NO_SLACK_ADMINS,
  resolveSettings,
  type SlackDirectory,
  type WorkspaceSettings,
} from './workspace/workspace-settings.js';

export interface ServiceContext {
  db: WorkspaceDb;
  workspace: { id: string; slackTeamId: string; brandName: string; settings: WorkspaceSettings };
  llm: Llm | null;
  limits: ReadLimits;
  /** Unpacks and structures a quotation's workbook (a worker thread in the server). */
  readSheets: SheetReader;
  /** Unpacks a catalog workbook (the same worker thread in the server). */
  readGrid: GridReader;
  /** The CPU-heavy pure steps (the decision, workbooks, the chart): a worker thread in the server. */
  compute: Compute;
  /** Where a quotation's lines are matched to the catalog: the reader's worker in the server; absent, this thread. */
  catalogRanker?: CatalogRanker;
  now: () => Date;
  /** Who is a Slack workspace admin (settings permissions); asked only about people who are not approvers. */
  directory: SlackDirectory;
}

/** No APPROVER_SLACK_IDS: approvers are each workspace's own (stored in its settings), never the environment's. */
export type ContextEnv = Pick<
  Env,
  'PO_DUAL_APPROVAL_ABOVE_USD' | 'MAX_UPLOAD_MB' | 'MAX_SHEET_ROWS' | 'MAX_WORKBOOK_CELLS'
>;

export interface ContextFactoryOptions {
  prisma: PrismaClient;
  env: ContextEnv;
  llm: Llm | null;
  now?: () => Date;
  /** Slack's users.info, plugged in by server.ts; without it nobody counts as a workspace admin (tests, jobs, CLI). */
  directory?: SlackDirectory;
  /** In this thread unless given: the server passes its worker thread's reader. */
  readSheets?: SheetReader;
  readGrid?: GridReader;
  compute?: Compute;
  catalogRanker?: CatalogRanker;
}

/**
 * How long the App Home may act on a workspace this process read earlier (`recentForTeam`), and when it reads it
 * again in the background. A settings change made here is seen at once (`settingsEpoch`); one made by another
 * instance within RECENT_WORKSPACE_MAX_AGE_MS.
 */
export const RECENT_WORKSPACE_MAX_AGE_MS = 5_000;
export const RECENT_WORKSPACE_REFRESH_MS = 1_000;

/** Resolves Slack team ids to service contexts; an unknown team gets null (Parley is not installed there). */
export function createContextFactory(options: ContextFactoryOptions) {
  const now = options.now ?? (() => new Date());
  const limits = readLimitsFrom(options.env);
  const directory = options.directory ?? NO_SLACK_ADMINS;
  const readSheets = options.readSheets ?? readSheetsInProcess;
  const readGrid = options.readGrid ?? readGridInProcess;
  const compute = options.compute ?? computeInProcess;
  const forTeam = async (slackTeamId: string): Promise<ServiceContext | null> => {
    const workspace = await options.prisma.workspace.findUnique({ where: { slackTeamId } });
    return workspace ? build(workspace) : null;
  };
  const recent = recentReads(forTeam, {
    maxAgeMs: RECENT_WORKSPACE_MAX_AGE_MS,
    refreshAfterMs: RECENT_WORKSPACE_REFRESH_MS,
    epoch: settingsEpoch,
  });
  return {
    forTeam,
    /**
     * The same, from a read this process made up to RECENT_WORKSPACE_MAX_AGE_MS ago (no statement in steady state).
     * For the App Home only, which shows the settings and claims a first approver (re-checked in its own write):
     * clicks that approve, review or change anything keep reading the workspace fresh (`forTeam`), so a person removed
     * from the approvers on another instance cannot act on a stale list.
     */
    recentForTeam: (slackTeamId: string): Promise<ServiceContext | null> => recent.get(slackTeamId),
    async forWorkspace(workspaceId: string): Promise<ServiceContext | null> {
      const workspace = await options.prisma.workspace.findUnique({ where: { id: workspaceId } });
      return workspace ? build(workspace) : null;
    },
  };

  function build(workspace: { id: string; slackTeamId: string; brandName: string; settings: unknown }): ServiceContext {
    return {
      db: scopeToWorkspace(options.prisma, workspace.id),
      workspace: {
        id: workspace.id,
        slackTeamId: workspace.slackTeamId,
        brandName: workspace.brandName,
        settings: resolveSettings(workspace.settings, options.env),
      },
      llm: options.llm,
      limits,
      readSheets,
      readGrid,
      compute,
      ...(options.catalogRanker ? { catalogRanker: options.catalogRanker } : {}),
      now,
      directory,
    };
  }
}
export type ContextFactory = ReturnType<typeof createContextFactory>;
