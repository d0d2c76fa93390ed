// A started Parley is warm before it listens: the first file of a process no longer waits for the reader's worker to
// load nor for the served workspace's catalog index to be built there (10,000 products: a query and ~0.3 s of CPU) —
// issue 15's large story, where the first deliveries were answered in ~0.7 s instead of ~0.1 s.
import { afterAll, describe, expect, it } from 'vitest';
import { catalogKey } from '../../src/db/stores/catalog-store.js';
import { scopeToWorkspace } from '../../src/db/scoped.js';
import { createOffThreadSheetReader } from '../../src/quotation/off-thread-sheet-reader.js';
import { TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { useSandboxedParley } from './harness.js';

const sheetReader = createOffThreadSheetReader();
afterAll(() => sheetReader.close());
const running = useSandboxedParley({ sheetReader });

describe('a Parley start', () => {
  it("has the served workspace's catalog index in the reader's worker before any file is shared", async () => {
    const { prisma } = running.db;
    const workspace = await prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM_ID } });
    expect(await prisma.quotation.count()).toBe(0);
    const key = await catalogKey(scopeToWorkspace(prisma, workspace.id));
    // null: the worker holds no index under the catalog's current key (src/quotation/sheet-reader-worker.ts).
    expect(await sheetReader.catalog.rank(key, [], { pools: false })).toEqual({ results: [], pools: [] });
  });
});
