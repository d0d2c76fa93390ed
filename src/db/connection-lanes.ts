// PGlite is one connection: every statement and every transaction of the process takes turns on it, in the order they
// asked (PGlite's own lock is first come, first served). With a 3,000-line quotation being read, a negotiation saving
// its checkpoints and twenty App Homes being built, a click's save — which must commit before Slack is answered —
// queued behind all of it and was acknowledged seconds late. So every use of the connection takes a turn here first,
// in one of two lanes: work Slack is waiting on (src/ack-path.ts) is served before any background work that is still
// queued. Nothing is preempted — a transaction that holds the connection keeps it until it ends — so background work
// stays correct, and at worst waits for the few statements of the acknowledgements in front of it.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { slackWaiting } from '../ack-path.js';

export type Lane = 'ack' | 'background';

/** One turn on the connection, for the timings. */
export interface Turn {
  lane: Lane;
  /** Time spent queued for the connection, then holding it. */
  waitMs: number;
  holdMs: number;
  /** The statement, or a transaction's first statement (truncated), and how many it ran. */
  label: string;
  statements: number;
}

/**
 * How long the connection stays with an acknowledgement between two of its statements. A listener's save is several
 * statements, each issued a moment after the previous one returned; handing the connection to background work in that
 * moment would make the save wait behind one background turn per statement (a Home build, a checkpoint).
 */
export const ACK_GRACE_MS = 10;

/** A single connection served in two lanes: whoever frees it hands it to the oldest `ack` waiter, else background. */
export class LaneLock {
  private busy = false;
  private readonly waiting: Record<Lane, (() => void)[]> = { ack: [], background: [] };
  /** While set, the connection is kept for the acknowledgement that just used it (ACK_GRACE_MS). */
  private grace: NodeJS.Timeout | null = null;

  constructor(private readonly graceMs = ACK_GRACE_MS) {}

  async acquire(lane: Lane): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return;
    }
    if (lane === 'ack' && this.grace) {
      clearTimeout(this.grace);
      this.grace = null;
      return;
    }
    await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
  }

  /** `ackContinues`: the turn was an acknowledgement Slack still waits on, which may have a next statement. */
  release(ackContinues = false): void {
    const ack = this.waiting.ack.shift();
    if (ack) return ack();
    if (ackContinues && this.graceMs > 0 && this.waiting.background.length > 0) {
      this.grace = setTimeout(() => {
        this.grace = null;
        this.handOn();
      }, this.graceMs);
      return;
    }
    this.handOn();
  }

  private handOn(): void {
    const next = this.waiting.ack.shift() ?? this.waiting.background.shift();
    if (next) next();
    else this.busy = false;
  }

  get queued(): Record<Lane, number> {
    return { ack: this.waiting.ack.length, background: this.waiting.background.length };
  }
}

/** The PGlite methods that take the connection (each waits for PGlite's own lock); the rest pass straight through. */
const TURN_TAKING = new Set<PropertyKey>(['query', 'sql', 'exec', 'transaction', 'describeQuery']);

/**
 * The same PGlite, with every statement and transaction taking its turn through `LaneLock`. Give this one to every
 * user of the connection (Prisma, pg-boss, scripts): one that went around it would queue on PGlite's lock unseen.
 */
export function servedInLanes(pglite: PGlite, onTurn?: (turn: Turn) => void): PGlite {
  const lock = new LaneLock();
  const take = (method: PropertyKey, run: (...args: unknown[]) => Promise<unknown>) =>
    async function (...args: unknown[]): Promise<unknown> {
      const slack = slackWaiting();
      const lane: Lane = slack ? 'ack' : 'background';
      const queued = performance.now();
      await lock.acquire(lane);
      const started = performance.now();
      const seen = { label: typeof args[0] === 'string' ? args[0] : '', statements: 1 };
      if (method === 'transaction' && typeof args[0] === 'function') {
        const work = args[0] as (tx: Transaction) => Promise<unknown>;
        seen.statements = 0;
        args = [(tx: Transaction) => work(counting(tx, seen)), ...args.slice(1)];
      }
      try {
        return await run.apply(pglite, args);
      } finally {
        lock.release(slack?.open === true);
        const ended = performance.now();
        const turn: Turn = {
          lane,
          waitMs: started - queued,
          holdMs: ended - started,
          label: (method === 'transaction' ? 'tx: ' : '') + seen.label.replace(/\s+/g, ' ').slice(0, 80),
          statements: seen.statements,
        };
        if (slack) {
          slack.dbWaitMs += turn.waitMs;
          slack.dbRunMs += turn.holdMs;
          slack.statements += turn.statements;
        }
        onTurn?.(turn);
      }
    };
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(pglite, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = wrapped.get(property);
      if (!method) {
        // Bound to PGlite itself: its own internal calls (sql → query, listen → exec) must not queue here twice.
        method = TURN_TAKING.has(property)
          ? take(property, value as (...args: unknown[]) => Promise<unknown>)
          : (value as (...args: unknown[]) => unknown).bind(target);
        wrapped.set(property, method);
      }
      return method;
    },
  });
}

/** A transaction that notes its first statement and counts them, for the timings. */
function counting(tx: Transaction, seen: { label: string; statements: number }): Transaction {
  const note = (sql: unknown) => {
    if (seen.statements++ === 0 && typeof sql === 'string') seen.label = sql;
  };
  return new Proxy(tx, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'query' && property !== 'exec') return (value as (...args: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        note(args[0]);
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Where the connection's time went, summed up over a run: what `DB_TIMINGS_FILE` gets (the benchmarks read it). */
export class ConnectionTimings {
  private readonly turns: Record<Lane, { wait: number[]; hold: number[] }> = {
    ack: { wait: [], hold: [] },
    background: { wait: [], hold: [] },
  };
  private readonly longest: Turn[] = [];
  private readonly answers: { what: string; totalMs: number; dbWaitMs: number; dbRunMs: number; statements: number }[] =
    [];
  private readonly loop = monitorEventLoopDelay({ resolution: 10 });

  constructor() {
    this.loop.enable();
  }

  readonly turn = (turn: Turn): void => {
    this.turns[turn.lane].wait.push(turn.waitMs);
    this.turns[turn.lane].hold.push(turn.holdMs);
    if (turn.holdMs >= 100) {
      this.longest.push(turn);
      this.longest.sort((a, b) => b.holdMs - a.holdMs);
      this.longest.length = Math.min(this.longest.length, 15);
    }
  };

  readonly answered = (
    wait: { what: string; dbWaitMs: number; dbRunMs: number; statements: number },
    totalMs: number,
  ): void => {
    this.answers.push({
      what: wait.what,
      totalMs,
      dbWaitMs: wait.dbWaitMs,
      dbRunMs: wait.dbRunMs,
      statements: wait.statements,
    });
  };

  summary(): Record<string, unknown> {
    const lanes = Object.fromEntries(
      (['ack', 'background'] as const).map((lane) => {
        const { wait, hold } = this.turns[lane];
        return [
          lane,
          {
            turns: wait.length,
            waitMs: spread(wait),
            holdMs: spread(hold),
            totalHoldS: round(hold.reduce((sum, ms) => sum + ms, 0) / 1000),
          },
        ];
      }),
    );
    const totals = this.answers.map((answer) => answer.totalMs);
    const slowest = [...this.answers]
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, 10)
      .map((answer) => ({
        what: answer.what,
        totalMs: round(answer.totalMs),
        dbWaitMs: round(answer.dbWaitMs),
        dbRunMs: round(answer.dbRunMs),
        restMs: round(answer.totalMs - answer.dbWaitMs - answer.dbRunMs),
        statements: answer.statements,
      }));
    const sum = (pick: (answer: (typeof this.answers)[number]) => number) =>
      round(this.answers.reduce((total, answer) => total + pick(answer), 0));
    return {
      lanes,
      answers: {
        count: this.answers.length,
        totalMs: spread(totals),
        sumTotalMs: sum((a) => a.totalMs),
        sumDbWaitMs: sum((a) => a.dbWaitMs),
        sumDbRunMs: sum((a) => a.dbRunMs),
        slowest,
      },
      longestTurns: this.longest.map((turn) => ({ ...turn, waitMs: round(turn.waitMs), holdMs: round(turn.holdMs) })),
      eventLoopDelayMs: {
        p50: round(this.loop.percentile(50) / 1e6),
        p99: round(this.loop.percentile(99) / 1e6),
        max: round(this.loop.max / 1e6),
      },
    };
  }

  stop(): void {
    this.loop.disable();
  }
}

function spread(values: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { p50: at(0.5), p99: at(0.99), max: round(sorted.at(-1) ?? 0) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/**
 * Records the timings into `path` (rewritten every 5 s and at `stop`): each answer to Slack with its database wait and
 * run time, each lane's turns, and the event loop's delay. `onTurn` goes to the database (PGlite), `answered` to
 * src/ack-path.ts.
 */
export function writeConnectionTimings(path: string): {
  onTurn: (turn: Turn) => void;
  answered: ConnectionTimings['answered'];
  stop(): void;
} {
  const timings = new ConnectionTimings();
  const write = () => {
    try {
      writeFileSync(path, JSON.stringify({ pid: process.pid, ...timings.summary() }, null, 1));
    } catch {
      // A benchmark's diagnostics: a folder that went away must not disturb the service.
    }
  };
  const every = setInterval(write, 5_000);
  every.unref();
  return {
    onTurn: timings.turn,
    answered: timings.answered,
    stop() {
      clearInterval(every);
      write();
      timings.stop();
    },
  };
}
