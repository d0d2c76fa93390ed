// The suite in four projects, shaped by what each test costs (README, "Tests"):
// - pure: domain code, builders, listeners with fakes; no database. One thread per core, modules loaded once per
//   thread rather than once per file (isolation would cost more than most of these tests take).
// - isolated: tests that need a process of their own: the embedded database itself (its thread, lock, lanes), the
//   CLIs started on it, a memory bound. PGlite only, starting from PGlite's templates.
// - database (*.db.test.ts): stores and services on a real database, each file its own copy of a migrated template.
// - e2e: whole stories through the real receiver and the Slack stand-in, and the reliability harness's runs.
// Outside `isolated`, a worker runs file after file with the modules it already loaded: loading Bolt, Prisma and the
// domain again for every file cost more than most files' tests. Every file opens its own database and Parley, so
// what a file leaves behind is its database's, which the next file does not see.
// `npm test` runs all four on PGlite; CI runs database and e2e again on PostgreSQL (`npm run test:postgres`).
import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

const PGLITE = [
  'src/db/pglite-*.test.ts',
  'src/db/numeric.test.ts',
  'src/db/schema-drift.test.ts',
  'src/services/quotation/record-lines.test.ts',
];
const OWN_PROCESS = ['src/cli/cli.test.ts', 'dev/reliability/ingestion-fuzz.test.ts'];
const DATABASE = ['{src,dev,test}/**/*.db.test.ts'];
const E2E = ['test/e2e/**/*.test.ts', 'dev/reliability/**/*.test.ts'];

/** Heaviest first, so that a long story never starts last and leaves a core idle at the end. */
const PROJECT_ORDER = ['e2e', 'isolated', 'database', 'pure'];

class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => PROJECT_ORDER.indexOf(file.project.name);
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// A story spends most of its time waiting for Slack's pace (one message a second per channel), so one worker more
// than there are cores keeps them busy.
const workers = availableParallelism() + 1;

export default defineConfig({
  test: {
    maxWorkers: workers,
    sequence: { sequencer: HeaviestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'pure',
          include: ['src/**/*.test.ts', 'dev/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...PGLITE, ...OWN_PROCESS, ...DATABASE, ...E2E],
          pool: 'threads',
          isolate: false,
          testTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: [...PGLITE, ...OWN_PROCESS],
          // PGlite's own templates: an initialised database loads in ~0.5 s, where initdb takes ~5 s of CPU.
          globalSetup: ['test/database-setup.ts'],
          // Processes that each start tsx and PGlite: seconds each on a busy two-core machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'database',
          include: DATABASE,
          isolate: false,
          globalSetup: ['test/database-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          exclude: OWN_PROCESS,
          isolate: false,
          globalSetup: ['test/database-setup.ts'],
          // A story paces its messages as Slack does (about one a second), and starts Parley first.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
