// One PGlite folder, one process: PGlite has no locking of its own, and two processes writing one folder corrupt it
// (duplicate ids, a broken index). Real child processes hold the folder here, the way `npm start` and
// `npm run demo` would, and the test process is the second opener.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { copyEmptyPgliteDataDir, pgliteTemplateDump } from '../../test/support/test-database.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'parley-pglite-lock-'));
const LOCK_FILE = 'parley.lock';

// The holder: opens the folder, says so, then does what stdin tells it (close the database and stay alive, or exit
// with the database still open) — so a test can tell a release on close from one on exit or a takeover after a kill.
// .mts: the scratch folder has no package.json saying "type": "module", and the script awaits at top level.
const holderScript = join(scratch, 'holder.mts');
writeFileSync(
  holderScript,
  `import { createInterface } from 'node:readline';
import { openDatabase } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/db/client.ts')).href)};
const db = await openDatabase({ kind: 'pglite', dataDir: process.argv[2] });
await db.prisma.$queryRaw\`SELECT 1\`;
console.log('open');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'close') { await db.close(); console.log('closed'); }
  if (line === 'exit') process.exit(0);
}
`,
);

interface Holder {
  child: ChildProcess;
  pid: number;
  /** Resolves when the holder has printed this line. */
  said(line: string): Promise<void>;
  exited: Promise<void>;
}

const holders: Holder[] = [];

async function startHolder(dataDir: string): Promise<Holder> {
  // node itself (not `npx tsx`, which forks twice) so that the child's pid is the pid of the process holding the lock.
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, dataDir], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const said = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.split('\n').includes(line)) resolve();
        else if (child.exitCode !== null || child.signalCode !== null)
          reject(new Error(`the holder ended before saying ${line}:\n${stderr}`));
        else setTimeout(check, 50);
      };
      check();
    });
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const holder: Holder = { child, pid: child.pid ?? -1, said, exited };
  holders.push(holder);
  await said('open');
  return holder;
}

/** A lock as a process that started an hour ago and is gone (or is not the process now under that pid) left it. */
function staleLock(pid: number | undefined): string {
  const startedAt = new Date(Date.now() - 3_600_000).toISOString();
  return JSON.stringify({ pid, startedAt, procStart: '1', command: 'src/main.ts', token: 'earlier-run' });
}

/** A folder PGlite has initialised and nobody has opened: a copy of the empty template (initdb costs ~5 s of CPU). */
async function freshDir(name: string): Promise<string> {
  const dataDir = join(scratch, name);
  await copyEmptyPgliteDataDir(dataDir);
  return dataDir;
}

afterEach(async () => {
  for (const holder of holders.splice(0)) {
    if (holder.child.exitCode === null && holder.child.signalCode === null) holder.child.kill('SIGKILL');
    await holder.exited;
  }
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a PGlite folder is held by the process that opened it', () => {
  it('refuses a second process, naming the holder, until the holder closes the database', async () => {
    const dataDir = await freshDir('second-opener');
    const holder = await startHolder(dataDir);

    const refused = await openDatabase({ kind: 'pglite', dataDir }).then(
      async (db) => {
        await db.close();
        return null;
      },
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refused, 'a second process opened a folder another process has open').not.toBeNull();
    expect(refused).toContain(`Another Parley process (pid ${holder.pid}, started `);
    expect(refused).toContain(`is using ${dataDir}`);
    expect(refused).toMatch(/Stop it, or point PGLITE_DATA_DIR elsewhere; use DATABASE_URL for several processes\./);

    // Closing releases the folder even though the holder's process lives on.
    holder.child.stdin?.write('close\n');
    await holder.said('closed');
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    const db = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(await db.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      await db.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('releases the folder when the holder exits without closing it', async () => {
    const dataDir = await freshDir('exit');
    const holder = await startHolder(dataDir);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(true);
    holder.child.stdin?.write('exit\n');
    await holder.exited;
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('takes over the lock of a holder that was killed (SIGKILL), and only then', async () => {
    const dataDir = await freshDir('killed');
    const holder = await startHolder(dataDir);
    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(`pid ${holder.pid}`);

    holder.child.kill('SIGKILL');
    await holder.exited;
    // The killed holder could not remove its lock: it is stale, and the next opener takes it over.
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: holder.pid });
    const db = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(await db.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      await db.close();
    }
  }, 60_000);

  it('lets exactly one of two processes take over the same stale lock', async () => {
    const dataDir = await freshDir('race');
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dataDir, LOCK_FILE), staleLock(gone));

    const outcomes = await Promise.allSettled([startHolder(dataDir), startHolder(dataDir)]);
    const opened = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(opened).toHaveLength(1);
    const refusal = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(String(refusal?.status === 'rejected' ? refusal.reason : '')).toContain(
      `Another Parley process (pid ${opened[0]?.pid}, `,
    );
  }, 60_000);

  it('takes over a lock left under its own pid by an earlier run (a restarted container gets the same pid)', async () => {
    const dataDir = await freshDir('same-pid-earlier-run');
    writeFileSync(join(dataDir, LOCK_FILE), staleLock(process.pid));
    const db = await openDatabase({ kind: 'pglite', dataDir });
    await db.close();
  }, 60_000);

  it('takes over a lock file that is not a lock (garbage, left long ago)', async () => {
    const dataDir = await freshDir('garbage');
    writeFileSync(join(dataDir, LOCK_FILE), '');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(join(dataDir, LOCK_FILE), longAgo, longAgo);
    const db = await openDatabase({ kind: 'pglite', dataDir });
    await db.close();
  }, 60_000);

  it('refuses a second open in the same process too', async () => {
    const dataDir = await freshDir('same-process');
    const db = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
        `This process (pid ${process.pid}) already has ${dataDir} open`,
      );
    } finally {
      await db.close();
    }
    // Released by close: the same process may open it again.
    const again = await openDatabase({ kind: 'pglite', dataDir });
    await again.close();
  }, 60_000);

  it('leaves in-memory databases (the test suite’s) unlocked: several open side by side', async () => {
    const fromDump = pgliteTemplateDump('empty');
    const [first, second] = await Promise.all([
      openDatabase({ kind: 'pglite', fromDump }),
      openDatabase({ kind: 'pglite', fromDump }),
    ]);
    try {
      expect(await first.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      expect(await second.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);
});
