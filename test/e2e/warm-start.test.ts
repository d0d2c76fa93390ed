// A started Parley is warm before it listens: the first file of a process no longer waits for the served workspace's
// catalog index to be built (10,000 products: a query and ~0.3 s of CPU on the event loop that acknowledges Slack) nor
// for the reader's worker to load (issue 15's large story: the first deliveries answered in ~0.7 s instead of ~0.1 s).
import { describe, expect, it } from 'vitest';
import { hasCatalogIndex } from '../../src/db/stores/catalog-store.js';
import { TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { useSandboxedParley } from './harness.js';

const running = useSandboxedParley();

describe('a Parley start', () => {
  it("has built the served workspace's catalog index before any file is shared", async () => {
    const workspace = await running.db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM_ID } });
    expect(await running.db.prisma.quotation.count()).toBe(0);
    expect(hasCatalogIndex(workspace.id)).toBe(true);
  });
});
