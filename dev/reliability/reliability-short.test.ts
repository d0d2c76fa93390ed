// The reliability benchmark's own runs, short: the same code as `npm run bench -- reliability`, with fewer uploads and
// no fuzzing (ingestion-fuzz.test.ts) or crash trials (crash-recovery.test.ts). On the backend CI asks for: the
// embedded database, or PostgreSQL (which adds two instances side by side and connections cut mid-story).
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { env } from '../../src/config/env.js';
import { provideBenchTemplates } from './bench-databases.js';
import { runReliability } from './reliability-bench.js';

const kind = env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`the reliability benchmark, short (${kind})`, () => {
  // The run's seeded template, as every test's database starts from it.
  beforeAll(() => provideBenchTemplates(inject('databaseTemplates')));

  it('faults, load (and on PostgreSQL two instances and dropped connections): nothing lost, nothing doubled', async () => {
    const lines: string[] = [];
    const figures = await runReliability({
      crashTrials: 0,
      loadUploads: 3,
      loadChannels: 3,
      fuzzCases: 0,
      backends: [kind],
      parts: ['twins', 'faults', 'load'],
      print: (line) => lines.push(line),
    });
    const report = lines.join('\n');
    expect(figures.faultRuns, report).toBe(kind === 'postgres' ? 3 : 2);
    expect(figures.faultPassed, report).toBe(figures.faultRuns);
    expect(figures.loadCompleted, report).toBe(3);
    expect(figures.maxMsgPerSecPerChannel, report).toBeLessThanOrEqual(1.1);
    expect(figures.duplicateMessages, report).toBe(0);
    expect(figures.lostMessages, report).toBe(0);
    expect(figures.twoInstanceDuplicates, report).toBe(0);
    if (kind === 'postgres') expect(report).toMatch(/2 instances\s+postgres\s+0\s+yes/);
  }, 600_000);
});
