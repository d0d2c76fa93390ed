// Parley as a separate process — `src/main.ts`, exactly what `npm start` runs — so a benchmark can kill it with
// SIGKILL at any moment, start it again, or run two of them side by side. Readiness and "nothing left to do" come
// from its `GET /healthz`.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ParleyProcessOptions {
  port: number;
  /**
   * Kept across restarts unless the caller changes it: a restarted instance takes back its own leases at once, a new
   * id must wait for them to expire.
   */
  instanceId: string;
  /** The environment beyond the basics (DATABASE_URL or PGLITE_DATA_DIR, SLACK_*…). */
  env: Record<string, string>;
  /** Modules loaded before `src/main.ts` (`--import`), e.g. the clock skew of dev/reliability/clock-skew.ts. */
  preload?: string[];
  /** Where its stderr goes (JSON log lines), appended. */
  logPath?: string;
}

export interface Health {
  ok: boolean;
  instance: string;
  busy: number;
  outboxUnsent: number;
  negotiating: number;
  reading: number;
  idle: boolean;
}

export class ParleyProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();

  constructor(readonly options: ParleyProcessOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  async start(timeoutMs = 60_000): Promise<void> {
    // `--no-env-file`: exactly the environment below, whatever .env a developer keeps in the checkout.
    const preload = (this.options.preload ?? []).flatMap((module) => ['--import', module]);
    const child = spawn(process.execPath, ['--import', 'tsx', ...preload, 'src/main.ts', '--no-env-file'], {
      cwd: PROJECT_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOG_LEVEL: 'warn',
        ...this.options.env,
        PORT: String(this.options.port),
        INSTANCE_ID: this.options.instanceId,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    if (this.options.logPath) child.stderr?.pipe(createWriteStream(this.options.logPath, { flags: 'a' }));
    else child.stderr?.resume();
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`Parley exited with ${child.exitCode} while starting`);
      if (await this.health().catch(() => null)) return;
      await sleep(100);
    }
    throw new Error(`Parley did not start within ${timeoutMs} ms`);
  }

  /** Kills the process as a crash would: no shutdown, no cleanup. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
    this.child = null;
  }

  async stop(): Promise<void> {
    this.child?.kill('SIGTERM');
    await Promise.race([this.exited, sleep(15_000)]);
    if (this.child && this.child.exitCode === null) await this.kill();
    this.child = null;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null;
  }

  async health(): Promise<Health> {
    const response = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`healthz answered ${response.status}`);
    return (await response.json()) as Health;
  }
}

/**
 * Waits until every running process reports nothing to do, twice in a row (a click's work can start just after one
 * look). Processes that are down are skipped: a test restarts them before it settles.
 */
export async function settleProcesses(processes: readonly ParleyProcess[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietLooks = 0;
  while (Date.now() < deadline) {
    const looks = await Promise.all(
      processes
        .filter((p) => p.running)
        .map((p) =>
          p.health().then(
            (h) => h.idle,
            () => false,
          ),
        ),
    );
    quietLooks = looks.length > 0 && looks.every(Boolean) ? quietLooks + 1 : 0;
    if (quietLooks >= 2) return;
    await sleep(50);
  }
  throw new Error(`Parley did not settle within ${timeoutMs} ms`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
