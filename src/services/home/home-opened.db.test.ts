// An App Home open, as Parley answers it. Once this process
// has read the workspace, an open makes no database call before Slack is answered — a workspace with approvers needs
// no claim — and the Home is queued again only when it changed. A settings change made here is seen at once: after
// the approvers are removed, the first admin to open the Home becomes the approver again. Real database (PGlite or
// PostgreSQL), behind a Prisma query extension that can hold every call: an open that answers while they are held
// made none before Slack was answered (one that needed the database could not answer at all).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../config/env.js';
import type { PrismaClient } from '../../db/client.js';
import { createNegotiationAgents } from '../../negotiation/agents/create-agents.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { fakeWork, noFiles } from '../../../test/support/facade-fakes.js';
import { createParley, type Parley } from '../parley.js';
import { createContextFactory } from '../service-context.js';
import { changeSettings } from '../workspace/change-settings.js';
import { setUpWorkspace } from '../workspace/set-up-workspace.js';
import type { SlackDirectory } from '../workspace/workspace-settings.js';

const TEAM = 'T0HOMEOPEN';
const APPROVER = 'U0SAM00001';
const ADMIN = 'U0ADMIN001';
const BUYER = 'U0MAYA0001';

let db: TestDatabase;
let parley: Parley;
/** While set, every database call waits for it: the calls an open's answer needs would never come back. */
let held: Promise<void> | null = null;

const directory: SlackDirectory = { isWorkspaceAdmin: async (_workspace, user) => user === ADMIN };

beforeAll(async () => {
  db = await createTestDatabase();
  await setUpWorkspace(db.prisma, {
    slackTeamId: TEAM,
    teamName: 'Fjell Gear',
    firstApprovers: [APPROVER],
    actorSlackUserId: null,
    source: 'APPROVER_SLACK_IDS',
  });
  // Every model operation and raw query of Parley's client, and of the workspace-scoped clients made from it.
  const counted = db.prisma.$extends({
    query: {
      async $allOperations({ args, query }) {
        if (held) await held;
        return query(args);
      },
    },
  });
  parley = createParley({
    // The extended client is Parley's client with a hook: its type is Prisma's extension type, not PrismaClient.
    contexts: createContextFactory({
      prisma: counted as unknown as PrismaClient,
      env: loadEnv({}),
      llm: null,
      directory,
    }),
    work: fakeWork(),
    agents: createNegotiationAgents(null),
    owner: 'instance-home',
    files: noFiles,
    kickOutbox: () => {},
  });
}, 120_000);
afterAll(async () => {
  await db?.destroy();
});

/** An open as the receiver runs it: Slack waits until it resolves. */
async function open(userId: string, shown: string | null = null) {
  const result = await parley.homeOpened(TEAM, userId, shown);
  await parley.idle();
  return result;
}

/**
 * An open with every database call held until it has answered: whether it answered without one. What it sets going
 * after its answer (the Home's build and publish) runs once the calls are let through.
 */
async function openWithoutDatabase(userId: string, shown: string | null = null, givingUpAfterMs = 5_000) {
  let release = () => {};
  held = new Promise<void>((resolve) => (release = resolve));
  const NO_ANSWER = Symbol('no answer');
  try {
    const answered = await Promise.race([
      parley.homeOpened(TEAM, userId, shown),
      // Far longer than an open from memory takes (well under a millisecond): it waits on a held call.
      new Promise<typeof NO_ANSWER>((resolve) => setTimeout(() => resolve(NO_ANSWER), givingUpAfterMs)),
    ]);
    return answered === NO_ANSWER ? null : answered;
  } finally {
    held = null;
    release();
    await parley.idle();
  }
}

const publishes = (userId: string) =>
  db.prisma.slackOutbox.findMany({
    where: { method: 'views.publish', dedupeKey: { startsWith: `home:${userId}:` } },
    orderBy: { createdAt: 'asc' },
  });

/** The hash a queued publish carries (what Slack hands back as the view's private_metadata at the next open). */
async function lastPublishedHash(userId: string): Promise<string | null> {
  const payload = (await publishes(userId)).at(-1)?.payload as { view?: { private_metadata?: string } } | undefined;
  return payload?.view?.private_metadata ?? null;
}

describe('an App Home open', () => {
  it('makes no database call before Slack is answered once the workspace was read', async () => {
    // The first open of this process reads the workspace before it answers: held, it cannot answer (however long it
    // is given: half a second is plenty to see it wait).
    expect(await openWithoutDatabase(BUYER, null, 500)).toBeNull();
    await open(BUYER);
    for (let i = 0; i < 5; i++) {
      expect(await openWithoutDatabase(BUYER, await lastPublishedHash(BUYER))).toEqual({ becameApprover: false });
    }
    // The approver's Home is another person's: still nothing before the answer.
    expect(await openWithoutDatabase(APPROVER)).toEqual({ becameApprover: false });
  });

  it('queues the Home only when it differs from the one Slack shows', async () => {
    const before = (await publishes(BUYER)).length;
    const shown = await lastPublishedHash(BUYER);
    expect(shown).toMatch(/^[0-9a-f]{32}$/);
    await open(BUYER, shown);
    expect(await publishes(BUYER)).toHaveLength(before);

    // Slack shows an older view (or none, after a reinstall): the Home goes out again.
    await open(BUYER, 'an older view');
    expect(await publishes(BUYER)).toHaveLength(before + 1);
    expect(await lastPublishedHash(BUYER)).toBe(shown);
  });

  it('sees a settings change made here at once: with the approvers removed, an admin’s open claims again', async () => {
    // The workspace has an approver: an admin's open claims nothing (and reads nothing).
    expect(await openWithoutDatabase(ADMIN)).toEqual({ becameApprover: false });

    const contexts = createContextFactory({ prisma: db.prisma, env: loadEnv({}), llm: null, directory });
    const ctx = await contexts.forTeam(TEAM);
    if (!ctx) throw new Error('no workspace');
    const { settingsVersion } = await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM } });
    const removed = await changeSettings(ctx, {
      by: APPROVER,
      values: { ...ctx.workspace.settings, brandName: ctx.workspace.brandName, approvers: [] },
      basedOnVersion: settingsVersion,
    });
    expect(removed).toMatchObject({ ok: true, changed: true });

    expect(await open(ADMIN)).toMatchObject({ becameApprover: true });
    const { settings } = await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM } });
    expect(settings).toMatchObject({ approvers: [ADMIN] });
    // And the admin's Home says so at once (built from the workspace read after the claim).
    const view = JSON.stringify((await publishes(ADMIN)).at(-1)?.payload);
    expect(view).toContain('You approve purchase orders here');
  });
});
