// A real crash: Parley's own process (`src/main.ts`) killed with SIGKILL in the middle of the story and started again.
// The story still ends with the same approved PO as an uninterrupted run of the same seed, every message once. On the
// embedded database by default, on PostgreSQL when DATABASE_URL is set (as CI runs it twice). The benchmark
// (`npm run bench -- reliability`) runs twenty such trials at random moments.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { env } from '../../src/config/env.js';
import { createBenchDatabase, dropBenchTemplates, provideBenchTemplates } from './bench-databases.js';
import { lostMessages, runStory, sameDecision } from './story-run.js';

const kind = env.DATABASE_URL ? 'postgres' : 'pglite';

async function story(label: string, killAtMs: number[]) {
  const db = await createBenchDatabase(kind, label);
  try {
    return await runStory({ db, label, seed: 1, killAtMs });
  } finally {
    await db.drop();
  }
}

describe(`a SIGKILL mid-story (${kind})`, () => {
  beforeAll(() => provideBenchTemplates(inject('databaseTemplates')));
  afterAll(() => dropBenchTemplates());

  it('loses nothing, doubles nothing and decides the same', async () => {
    const reference = await story('ref', []);
    expect(reference.completed).toBe(true);
    // Killed halfway through the story, as the reference ran it.
    const crashed = await story('kill', [Math.round(reference.storyMs / 2)]);
    expect(crashed.error).toBeNull();
    expect(crashed.kills).toBe(1);
    expect(crashed.completed).toBe(true);
    expect(sameDecision(reference, crashed)).toBe(true);
    expect(crashed.duplicateMessages).toBe(0);
    expect(lostMessages(reference, crashed)).toEqual([]);
    expect(crashed.unsentRows).toBe(0);
  }, 600_000);
});
