// The hostile-input proof for ingestion: thousands of mutated uploads (bytes, ZIP container, XML, grid) through
// parseQuotation, each in a worker thread under a watchdog. The promise it checks is DESIGN.md's "bad input gets a
// clear message and the process stays up": every file is either read or turned down with a typed QuotationError —
// never another exception (a crash), never a read that does not end (a hang), never memory without bound.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';

import { z } from 'zod';

import { startTypeScriptWorker } from '../../src/worker/typescript-worker.js';
import type { QuotationErrorCode, ReadLimits } from '../../src/quotation/errors.js';
import type { FuzzFamily } from './fuzz-cases.js';
import { DEFAULT_FUZZ_LIMITS, QUOTATION_ERROR_CODES, describeError } from './fuzz-ingest.js';

export interface IngestionFuzzOptions {
  seed: number;
  /** Cases to run (fewer when the time budget runs out first). */
  cases: number;
  /** No case is started after this long; the run reports how many it got through. */
  timeBudgetMs: number;
  /** A case still running after this long is a hang: its worker is terminated and replaced. */
  perCaseTimeoutMs: number;
  /** Worker threads; by default one per core, at most 2 (the machines have 2). */
  workers?: number;
  /** The reader's limits; by default the ones Parley ships with. */
  limits?: ReadLimits;
  /** Match lines against the 10K catalog (as Parley does) or an empty one (cheaper, same reader and structurer). */
  catalog?: 'full' | 'empty';
  /** The run fails when the process's resident memory ever exceeds this. Default 1024 MiB. */
  rssBoundMb?: number;
  /** Each worker's V8 heap limit: past it the worker dies (a crash for its case) instead of the process. */
  workerHeapMb?: number;
  samplesDir?: string;
  onProgress?: (done: number, requested: number) => void;
  /**
   * For testing the runner itself: case indexes whose worker loops forever (a hang) or throws outside any promise
   * (a process-level failure) instead of running the case, or throws just after reporting it (`lateAt`).
   */
  sabotage?: { hangAt?: number[]; dieAt?: number[]; lateAt?: number[] };
}

export interface FuzzCaseRef {
  case: number;
  mutation: string;
}

export interface FuzzCrash extends FuzzCaseRef {
  error: string;
}

export interface FamilyTally {
  cases: number;
  accepted: number;
  rejected: number;
  crashes: number;
  hangs: number;
}

export interface IngestionFuzzResult {
  seed: number;
  requestedCases: number;
  /** Cases that ran to an outcome (accepted, rejected, crash or hang). */
  cases: number;
  accepted: number;
  rejectedByCode: Partial<Record<QuotationErrorCode, number>>;
  crashes: FuzzCrash[];
  hangs: number;
  hangCases: FuzzCaseRef[];
  /** Highest resident set size of the process (runner and workers) seen during the run. */
  maxRssMb: number;
  rssBoundMb: number;
  seconds: number;
  byFamily: Record<FuzzFamily, FamilyTally>;
  /** Cases and the ingestion's total milliseconds per mutation (without the sample's name): where the time goes. */
  byMutation: Record<string, { cases: number; ms: number }>;
  /** The slowest cases that finished, slowest first: where a hang would come from. */
  slowest: (FuzzCaseRef & { ms: number })[];
  /** True when the time budget stopped the run before `requestedCases`. */
  stoppedByTimeBudget: boolean;
  /** Why the run failed; empty when it passed. */
  failures: string[];
}

const outcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('accepted'), items: z.number() }),
  z.object({ kind: z.literal('rejected'), code: z.string() }),
  z.object({ kind: z.literal('crash'), error: z.string() }),
]);

const workerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('started'),
    index: z.number(),
    family: z.enum(['bytes', 'zip', 'xml', 'grid']),
    mutation: z.string(),
    bytes: z.number(),
  }),
  z.object({ type: z.literal('done'), index: z.number(), ms: z.number(), outcome: outcomeSchema }),
]);

type CaseReport =
  | { kind: 'outcome'; family: FuzzFamily | null; mutation: string; ms: number; outcome: z.infer<typeof outcomeSchema> }
  | { kind: 'hang'; family: FuzzFamily | null; mutation: string }
  | { kind: 'died'; family: FuzzFamily | null; mutation: string; error: string };

const WORKER_ENTRY = new URL('./fuzz-worker.ts', import.meta.url);

/** Loading the catalog and samples in a fresh worker takes a second or two; on a busy machine give it more. */
const WORKER_READY_TIMEOUT_MS = 120_000;

class FuzzWorker {
  private worker: Worker;
  private ready: Promise<void>;
  private busy = false;
  private lastCase: FuzzCaseRef | null = null;
  /** A failure the worker reported between cases (a rejection left over from the last one): still a crash. */
  private stray: FuzzCrash | null = null;

  constructor(private readonly init: { workerData: Record<string, unknown>; heapMb: number }) {
    ({ worker: this.worker, ready: this.ready } = this.spawn());
  }

  private spawn(): { worker: Worker; ready: Promise<void> } {
    const worker = startTypeScriptWorker(WORKER_ENTRY, {
      workerData: this.init.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.init.heapMb },
    });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('fuzz worker did not start in time')), WORKER_READY_TIMEOUT_MS);
      const onMessage = (raw: unknown) => {
        const message = workerMessageSchema.safeParse(raw);
        if (message.success && message.data.type === 'ready') {
          cleanup();
          resolve();
        }
      };
      const fail = (error: unknown) => {
        cleanup();
        void worker.terminate();
        reject(new Error(`fuzz worker failed to start: ${describeError(error)}`));
      };
      const onExit = (code: number) => fail(new Error(`exited with code ${code}`));
      const cleanup = () => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', fail).off('exit', onExit);
      };
      worker.on('message', onMessage).on('error', fail).on('exit', onExit);
    });
    // Without a listener an 'error' between cases would be thrown in the runner's thread.
    worker.on('error', (error: unknown) => {
      if (this.busy || this.stray || !this.lastCase) return;
      this.stray = { ...this.lastCase, error: `process-level failure after the case ended: ${describeError(error)}` };
    });
    return { worker, ready };
  }

  private replace(): void {
    void this.worker.terminate();
    ({ worker: this.worker, ready: this.ready } = this.spawn());
  }

  /** The failure reported between cases, once. */
  takeStray(): FuzzCrash | null {
    const stray = this.stray;
    this.stray = null;
    return stray;
  }

  async run(index: number, timeoutMs: number): Promise<CaseReport> {
    // A worker that failed between cases is not trusted with the next one.
    if (this.stray) this.replace();
    await this.ready;
    const worker = this.worker;
    this.busy = true;
    const report = await new Promise<CaseReport>((resolve) => {
      let family: FuzzFamily | null = null;
      let mutation = 'unknown (the case was still being built)';
      let timer = setTimeout(() => finish({ kind: 'hang', family, mutation }), timeoutMs);
      const finish = (result: CaseReport) => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        resolve(result);
      };
      const onMessage = (raw: unknown) => {
        const message = workerMessageSchema.safeParse(raw);
        if (!message.success) {
          finish({ kind: 'died', family, mutation, error: `unreadable worker message: ${message.error.message}` });
          return;
        }
        const data = message.data;
        if (data.type === 'started' && data.index === index) {
          ({ family, mutation } = data);
          // Building the case had its own allowance; the ingestion gets a full one.
          clearTimeout(timer);
          timer = setTimeout(() => finish({ kind: 'hang', family, mutation }), timeoutMs);
        } else if (data.type === 'done' && data.index === index) {
          finish({ kind: 'outcome', family, mutation, ms: data.ms, outcome: data.outcome });
        }
      };
      // An uncaught exception or a rejection nobody awaited inside the worker, or its heap running out: what would
      // have taken a process down.
      const onError = (error: unknown) =>
        finish({ kind: 'died', family, mutation, error: `process-level failure: ${describeError(error)}` });
      const onExit = (code: number) =>
        finish({ kind: 'died', family, mutation, error: `process-level failure: worker exited with code ${code}` });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ type: 'run', index });
    });
    this.busy = false;
    this.lastCase = { case: index, mutation: report.mutation };
    if (report.kind !== 'outcome') this.replace();
    return report;
  }

  async stop(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.worker.terminate();
  }
}

const emptyTally = (): FamilyTally => ({ cases: 0, accepted: 0, rejected: 0, crashes: 0, hangs: 0 });

export async function runIngestionFuzz(options: IngestionFuzzOptions): Promise<IngestionFuzzResult> {
  const started = performance.now();
  const rssBoundMb = options.rssBoundMb ?? 1024;
  const workerCount = Math.max(1, options.workers ?? Math.min(2, availableParallelism()));
  const workerData = {
    seed: options.seed,
    samplesDir: options.samplesDir,
    catalog: options.catalog ?? 'full',
    limits: options.limits ?? DEFAULT_FUZZ_LIMITS,
    sabotage: {
      hangAt: options.sabotage?.hangAt ?? [],
      dieAt: options.sabotage?.dieAt ?? [],
      lateAt: options.sabotage?.lateAt ?? [],
    },
  };

  let maxRss = process.memoryUsage.rss();
  const sampleRss = () => {
    maxRss = Math.max(maxRss, process.memoryUsage.rss());
  };
  const sampler = setInterval(sampleRss, 25);
  sampler.unref();

  const result: IngestionFuzzResult = {
    seed: options.seed,
    requestedCases: options.cases,
    cases: 0,
    accepted: 0,
    rejectedByCode: {},
    crashes: [],
    hangs: 0,
    hangCases: [],
    maxRssMb: 0,
    rssBoundMb,
    seconds: 0,
    byFamily: { bytes: emptyTally(), zip: emptyTally(), xml: emptyTally(), grid: emptyTally() },
    byMutation: {},
    slowest: [],
    stoppedByTimeBudget: false,
    failures: [],
  };
  const record = (index: number, report: CaseReport) => {
    result.cases++;
    const tally = report.family ? result.byFamily[report.family] : null;
    if (tally) tally.cases++;
    const ref = { case: index, mutation: report.mutation };
    if (report.kind === 'hang') {
      result.hangs++;
      result.hangCases.push(ref);
      if (tally) tally.hangs++;
    } else if (report.kind === 'died') {
      result.crashes.push({ ...ref, error: report.error });
      if (tally) tally.crashes++;
    } else {
      const { outcome } = report;
      const kind = report.mutation.replace(/ \(.*\)$/, '');
      const spent = (result.byMutation[kind] ??= { cases: 0, ms: 0 });
      spent.cases++;
      spent.ms += Math.round(report.ms);
      result.slowest.push({ ...ref, ms: Math.round(report.ms) });
      result.slowest.sort((a, b) => b.ms - a.ms);
      result.slowest.length = Math.min(result.slowest.length, 5);
      if (outcome.kind === 'accepted') {
        result.accepted++;
        if (tally) tally.accepted++;
      } else if (outcome.kind === 'rejected') {
        const code = QUOTATION_ERROR_CODES.find((known) => known === outcome.code);
        if (code) {
          result.rejectedByCode[code] = (result.rejectedByCode[code] ?? 0) + 1;
          if (tally) tally.rejected++;
        } else {
          result.crashes.push({ ...ref, error: `rejected with an untyped code ${outcome.code}` });
          if (tally) tally.crashes++;
        }
      } else {
        result.crashes.push({ ...ref, error: outcome.error });
        if (tally) tally.crashes++;
      }
    }
    sampleRss();
    options.onProgress?.(result.cases, options.cases);
  };

  const recordStray = (stray: FuzzCrash | null) => {
    if (stray) result.crashes.push(stray);
  };

  const workers = Array.from(
    { length: workerCount },
    () => new FuzzWorker({ workerData, heapMb: options.workerHeapMb ?? 768 }),
  );
  let next = 0;
  const take = (): number | null => {
    if (next >= options.cases) return null;
    if (performance.now() - started > options.timeBudgetMs) {
      result.stoppedByTimeBudget = true;
      return null;
    }
    return next++;
  };
  try {
    await Promise.all(
      workers.map(async (worker) => {
        for (let index = take(); index !== null; index = take()) {
          record(index, await worker.run(index, options.perCaseTimeoutMs));
          recordStray(worker.takeStray());
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    for (const worker of workers) recordStray(worker.takeStray());
    clearInterval(sampler);
  }

  sampleRss();
  result.maxRssMb = Math.round(maxRss / (1024 * 1024));
  result.seconds = Math.round((performance.now() - started) / 100) / 10;
  result.crashes.sort((a, b) => a.case - b.case);
  result.hangCases.sort((a, b) => a.case - b.case);
  if (result.crashes.length > 0) result.failures.push(`${result.crashes.length} crash(es)`);
  if (result.hangs > 0) result.failures.push(`${result.hangs} hang(s) over ${options.perCaseTimeoutMs} ms`);
  if (result.maxRssMb > rssBoundMb)
    result.failures.push(`resident memory reached ${result.maxRssMb} MiB (bound ${rssBoundMb})`);
  return result;
}

// ───────────────────────────── For the benchmark ─────────────────────────────

export interface FuzzSummary {
  fuzzCases: number;
  fuzzCrashes: number;
  fuzzHangs: number;
  fuzzAccepted: number;
  fuzzRejected: number;
  fuzzMaxRssMb: number;
  fuzzSeconds: number;
  fuzzPassed: boolean;
}

export interface FuzzSummaryOptions extends Partial<IngestionFuzzOptions> {
  /** Receives the table of the run, line by line (e.g. console.log). */
  print?: (line: string) => void;
}

/**
 * The `npm run bench -- reliability` entry: 3,000 cases in at most 100 s by default. The figures are the keys the
 * benchmark's closing JSON line uses; the table goes to `print`.
 */
export async function fuzzSummary(
  options: FuzzSummaryOptions = {},
): Promise<FuzzSummary & { result: IngestionFuzzResult }> {
  const result = await runIngestionFuzz({
    ...options,
    seed: options.seed ?? 7,
    cases: options.cases ?? 3_000,
    timeBudgetMs: options.timeBudgetMs ?? 100_000,
    perCaseTimeoutMs: options.perCaseTimeoutMs ?? 15_000,
  });
  if (options.print) for (const line of formatFuzzTable(result)) options.print(line);
  const rejected = Object.values(result.rejectedByCode).reduce((sum, n) => sum + (n ?? 0), 0);
  return {
    fuzzCases: result.cases,
    fuzzCrashes: result.crashes.length,
    fuzzHangs: result.hangs,
    fuzzAccepted: result.accepted,
    fuzzRejected: rejected,
    fuzzMaxRssMb: result.maxRssMb,
    fuzzSeconds: result.seconds,
    fuzzPassed: result.failures.length === 0,
    result,
  };
}

/** The run as a person reads it: one row per family, then rejections by code, then what went wrong. */
export function formatFuzzTable(result: IngestionFuzzResult): string[] {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const lines = [
    `ingestion fuzz: seed ${result.seed}, ${result.cases}/${result.requestedCases} cases in ${result.seconds} s, ` +
      `max RSS ${result.maxRssMb} MiB (bound ${result.rssBoundMb})${result.stoppedByTimeBudget ? ', stopped by the time budget' : ''}`,
    `${'family'.padEnd(8)}${pad('cases', 8)}${pad('accepted', 10)}${pad('rejected', 10)}${pad('crashes', 9)}${pad('hangs', 7)}`,
  ];
  for (const [family, tally] of Object.entries(result.byFamily)) {
    lines.push(
      `${family.padEnd(8)}${pad(tally.cases, 8)}${pad(tally.accepted, 10)}${pad(tally.rejected, 10)}${pad(tally.crashes, 9)}${pad(tally.hangs, 7)}`,
    );
  }
  const codes = Object.entries(result.rejectedByCode)
    .sort(([, a], [, b]) => (b ?? 0) - (a ?? 0))
    .map(([code, n]) => `${code} ${n}`);
  lines.push(`rejected by code: ${codes.join(', ') || 'none'}`);
  const slowest = result.slowest[0];
  if (slowest) lines.push(`slowest case: #${slowest.case} ${slowest.mutation}, ${slowest.ms} ms`);
  for (const crash of result.crashes.slice(0, 10)) {
    lines.push(`CRASH #${crash.case} ${crash.mutation}: ${crash.error.split('\n')[0] ?? ''}`);
  }
  for (const hang of result.hangCases.slice(0, 10)) lines.push(`HANG #${hang.case} ${hang.mutation}`);
  lines.push(result.failures.length === 0 ? 'fuzz: passed' : `fuzz: FAILED (${result.failures.join('; ')})`);
  return lines;
}
