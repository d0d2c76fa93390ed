// One PGlite folder, one process. PGlite is PostgreSQL in WASM with no shared memory or postmaster between processes,
// so it cannot see a second process writing the same files: two writers corrupt the folder silently (duplicate
// ids, a broken index). The process that opens a folder therefore holds a lock file in it, created
// exclusively; every other opener is refused with a sentence naming the holder. A holder that died without releasing
// (SIGKILL, a crash, a power cut) leaves a lock whose process is gone: that lock is stale and the next opener takes it
// over.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

/** The lock's name inside the data directory (next to PGlite's own files, so it travels with the folder). */
export const PGLITE_LOCK_FILE = 'parley.lock';

interface LockRecord {
  pid: number;
  /** When the holder's process started (ISO 8601): with the pid, what a person needs to find it. */
  startedAt: string;
  /** The holder's start time in clock ticks since boot (/proc/<pid>/stat, Linux): tells a reused pid apart. */
  procStart: string | null;
  /** The script the holder runs, for the message. */
  command: string;
  /** This opening's own mark, so a holder only ever removes its own lock. */
  token: string;
}

export interface PgliteFolderLock {
  /** Removes the lock if it is still this opening's; safe to call more than once. */
  release(): void;
}

export class PgliteFolderLockedError extends Error {
  constructor(
    message: string,
    readonly holder: { pid: number; startedAt: string },
  ) {
    super(message);
    this.name = 'PgliteFolderLockedError';
  }
}

/** The locks this process holds (lock path → token): a second open here is refused too, and exit releases them. */
const held = new Map<string, string>();
let releaseOnExit = false;

const processStartMs = Date.now() - process.uptime() * 1000;
const ownProcStart = procStartOf(process.pid);

/** A partly written lock (another opener between its create and its write) is given this long to be completed. */
const UNREADABLE_GRACE_MS = 5_000;
/** Taking over a stale lock holds a second file for a few synchronous calls; one older than this was left by a crash. */
const TAKEOVER_GRACE_MS = 10_000;
const RETRY_MS = 50;
const MAX_ATTEMPTS = 200;

/** Takes the folder for this process, or throws PgliteFolderLockedError naming the process that has it. */
export async function lockPgliteFolder(dataDir: string): Promise<PgliteFolderLock> {
  const path = join(dataDir, PGLITE_LOCK_FILE);
  const mine = ownRecord();
  if (held.has(path)) throw lockedError(dataDir, mine);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (tryCreate(path, JSON.stringify(mine))) {
      held.set(path, mine.token);
      if (!releaseOnExit) {
        // 'exit' runs for process.exit() and a normal end, not for SIGKILL or an unhandled signal: those leave a
        // stale lock, which the next opener takes over.
        process.once('exit', () => {
          for (const [lockPath, token] of held) removeIfMine(lockPath, token);
        });
        releaseOnExit = true;
      }
      return { release: () => removeIfMine(path, mine.token) };
    }
    const raw = readRaw(path);
    if (raw === null) continue; // released between our create and our read: try again
    const holder = parseRecord(raw);
    if (holder && isAlive(holder)) throw lockedError(dataDir, holder);
    if (!holder && ageMs(path) < UNREADABLE_GRACE_MS) {
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      continue;
    }
    await removeStale(path, raw);
  }
  throw new Error(`Could not take ${PGLITE_LOCK_FILE} in ${shown(dataDir)}: other processes keep contending for it.`);
}

function ownRecord(): LockRecord {
  return {
    pid: process.pid,
    startedAt: new Date(processStartMs).toISOString(),
    procStart: ownProcStart,
    command: process.argv[1] ? shown(process.argv[1]) : process.argv0,
    token: randomBytes(8).toString('hex'),
  };
}

/** Creates the lock only if there is none (O_EXCL): of several openers, exactly one succeeds. */
function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } catch (error) {
    // A lock that could not be written (a full disk) must not stay behind and block the next opener.
    closeSync(fd);
    removeQuietly(path);
    throw error;
  }
  closeSync(fd);
  return true;
}

/**
 * Removes a stale lock without removing a fresh one: two openers may both find the same stale lock, and the slower
 * one must not delete the lock the faster one has just created. Only the holder of a second, exclusive file may
 * remove the lock, and only if it still reads exactly as the stale one did.
 */
async function removeStale(path: string, staleContent: string): Promise<void> {
  const takeover = `${path}.takeover`;
  if (!tryCreate(takeover, String(process.pid))) {
    // Someone else is taking over right now (a few synchronous calls), or crashed doing so long ago.
    if (ageMs(takeover) > TAKEOVER_GRACE_MS) removeQuietly(takeover);
    else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    return;
  }
  try {
    if (readRaw(path) === staleContent) unlinkSync(path);
  } finally {
    removeQuietly(takeover);
  }
}

/** Whether the process that wrote the lock is still running (a reused pid is not the writer). */
function isAlive(holder: LockRecord): boolean {
  if (holder.pid === process.pid) {
    // Our own pid, yet not in `held`: another copy of this module in this process (a worker thread), or an earlier
    // run that got the same pid — common in a container, where a restarted service gets the same small pid. The start
    // time tells which (to the tick under /proc; else within the jitter of computing it from the uptime).
    if (holder.procStart !== null && ownProcStart !== null) return holder.procStart === ownProcStart;
    return Math.abs(Date.parse(holder.startedAt) - processStartMs) < 2_000;
  }
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists but belongs to another user, which still counts as alive.
    if (errorCode(error) === 'ESRCH') return false;
  }
  if (holder.procStart === null) return true;
  const now = procStartOf(holder.pid);
  return now === null || now === holder.procStart;
}

/** Field 22 of /proc/<pid>/stat (start time in ticks since boot); null where there is no /proc (macOS, Windows). */
function procStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces; fields 3… follow the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function lockedError(dataDir: string, holder: LockRecord): PgliteFolderLockedError {
  const started = `${holder.startedAt.slice(0, 19).replace('T', ' ')} UTC`;
  const where = shown(dataDir);
  const message =
    holder.pid === process.pid
      ? `This process (pid ${holder.pid}) already has ${where} open; close that database before opening it again.`
      : `Another Parley process (pid ${holder.pid}, started ${started}, running ${holder.command}) is using ${where}. ` +
        'Stop it, or point PGLITE_DATA_DIR elsewhere; use DATABASE_URL for several processes.';
  return new PgliteFolderLockedError(message, { pid: holder.pid, startedAt: holder.startedAt });
}

function removeIfMine(path: string, token: string): void {
  if (held.get(path) !== token) return;
  held.delete(path);
  const current = parseRecord(readRaw(path) ?? '');
  if (current?.token === token) removeQuietly(path);
}

function readRaw(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

function parseRecord(raw: string): LockRecord | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const record = value as Partial<LockRecord>;
    // A pid of 0 or below would name a process group, which "is alive" forever: such a file is not a lock.
    const validPid = typeof record.pid === 'number' && Number.isInteger(record.pid) && record.pid > 0;
    if (!validPid || typeof record.startedAt !== 'string' || typeof record.token !== 'string') return null;
    return {
      pid: record.pid as number,
      startedAt: record.startedAt,
      procStart: typeof record.procStart === 'string' ? record.procStart : null,
      command: typeof record.command === 'string' ? record.command : 'an unknown script',
      token: record.token,
    };
  } catch {
    return null;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/** A path as a person would type it: relative to the working directory when inside it. */
function shown(path: string): string {
  const fromHere = relative(process.cwd(), path);
  return fromHere && !fromHere.startsWith('..') && !isAbsolute(fromHere) ? fromHere : path;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
