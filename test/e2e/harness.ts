// The end-to-end tests' Parley: a fresh test database holding the stand-in's workspace and catalog (SEEDED_WORKSPACE)
// and Parley's real receiver against the stand-in, started once per test file and stopped after it. Read `db` and
// `parley` inside tests (they are set by `beforeAll`). Its worker threads are the test process's (shared-workers.ts)
// unless the options name others.
import { afterAll, beforeAll } from 'vitest';
import { sharedWorkers } from '../support/shared-workers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import {
  type SandboxedParley,
  type SandboxedParleyOptions,
  startSandboxedParley,
} from '../../dev/slack-stand-in/sandboxed-parley.js';

export interface SandboxedParleyForTests {
  db: TestDatabase;
  parley: SandboxedParley;
}

export function useSandboxedParley(
  options: Omit<SandboxedParleyOptions, 'db'> & {
    afterStart?: (running: SandboxedParleyForTests) => Promise<void>;
  } = {},
): SandboxedParleyForTests {
  const running = {} as SandboxedParleyForTests;
  beforeAll(async () => {
    running.db = await createTestDatabase('seeded');
    running.parley = await startSandboxedParley({ ...sharedWorkers(), ...options, db: running.db });
    await options.afterStart?.(running);
  }, 180_000);
  afterAll(async () => {
    await running.parley?.stop();
    await running.db?.destroy();
  });
  return running;
}
