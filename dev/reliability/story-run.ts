// One run of the whole story against Parley in separate processes (`src/main.ts`, as `npm start` runs it): the
// stand-in plays the people, the processes do the work. Optionally kills a process with SIGKILL at chosen moments and
// starts it again (same instance id, same port), or runs two instances on one database. Afterwards it reads what
// happened — the thread, the outbox, the PO — so runs can be compared.
import { readFile } from 'node:fs/promises';
import { type SlackSandbox } from '../slack-stand-in/index.js';
import { playStory } from '../slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, freePort, standInEnv, startStoryStandIn } from '../slack-stand-in/sandboxed-parley.js';
import { OUTBOX_EVENT_TYPE } from '../../src/outbox/index.js';
import type { Database } from '../../src/db/client.js';
import type { BenchDatabase } from './bench-databases.js';
import {
  countDuplicates,
  type DuplicateCounts,
  longestQuiet,
  minPostGapMs,
  percentile,
  type Quiet,
  storyTimeline,
  type TimelineEntry,
} from './call-log-figures.js';
import { type MidRoundClicks, startMidRoundBuyer } from './mid-round-buyer.js';
import { ParleyProcess, settleProcesses, sleep } from './parley-process.js';

export const STORY_SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);

/** Sample 13: 3,000 lines, for the large story. */
export const LARGE_SAMPLE = new URL('../../data/samples/13-large-3000-lines.xlsx', import.meta.url);

const CLOCK_SKEW_PRELOAD = new URL('./clock-skew.ts', import.meta.url).href;
const CPU_PROFILE_PRELOAD = new URL('./cpu-profile.ts', import.meta.url).href;

export interface StoryRunOptions {
  db: BenchDatabase;
  label: string;
  seed: number;
  /** Moments (ms after the upload) to SIGKILL an instance and start it again. */
  killAtMs?: number[];
  /**
   * Restart a killed instance under a new instance id, as a replaced container would: its old leases are nobody's
   * until they expire, so the lease-expiry path is taken (the same id takes them back at once).
   */
  newInstanceIdOnRestart?: boolean;
  /** Instances side by side (each event and click goes to one at random). */
  instances?: number;
  /** Clock skew (ms) per instance, by index (missing: none), via dev/reliability/clock-skew.ts. */
  clockSkewMs?: number[];
  /** Extra environment for the instances (faults, Claude's fake…). */
  env?: Record<string, string>;
  /** Called with the stand-in before the story starts (e.g. to set faults). */
  prepare?: (sandbox: SlackSandbox) => void;
  logPath?: string;
  /** The quotation the buyer shares (default STORY_SAMPLE). */
  sample?: URL;
  /**
   * Every event delivered twice at once, the second time as Slack's retry (same event id, retry headers), as Slack
   * does when an acknowledgement is late: each must take effect once.
   */
  retryEveryEvent?: boolean;
  /**
   * While the story runs, `count` people open the App Home at the same moment, every `everyMs`: requests that must be
   * acknowledged quickly however busy the instance is (their times go into `ackP99Ms`).
   */
  concurrentClicks?: { count: number; everyMs: number };
  /** How long each wait for the instances to finish their work may take (default settleProcesses' 2 minutes). */
  settleTimeoutMs?: number;
  /**
   * The buyer also clicks the curveball (a strategy other than the recommended one) and each question's first answer
   * the moment they appear, mid-round, without waiting for Parley to settle (dev/reliability/mid-round-buyer.ts).
   */
  midRound?: boolean;
}

/** What the mid-round buyer clicked, and whether the database holds it at the end. */
export interface MidRoundOutcome extends MidRoundClicks {
  /** The curveball's strategy recorded as the buyer's choice (its audit entries), and how many times. */
  choiceApplied: boolean;
  choiceAudits: number;
  /** Questions the mid-round buyer clicked whose stored answer is the one clicked. */
  answersApplied: number;
}

export interface StoryOutcome {
  completed: boolean;
  error: string | null;
  kills: number;
  /** Outbox keys of the bot's messages in the thread, in order (from each message's metadata). */
  messageKeys: string[];
  duplicateMessages: number;
  /** Repeated effects in the stand-in's call log: posts, edits, uploads, reactions. */
  duplicates: DuplicateCounts;
  /** Smallest gap between two accepted posts in one channel (null: fewer than two). */
  minPostGapMs: number | null;
  /** The pace the instances posted at (SLACK_POST_INTERVAL_MS): 20 ms unless the run asks for Slack's 1 s. */
  postIntervalMs: number;
  /** Edits Slack refused because the message was not there (an edit sent before its post). */
  editsBeforePost: number;
  /** Outbox rows never sent (pending, sending or failed at the end). */
  unsentRows: number;
  /** Every outbox row at the end, by key: its status and the ts Slack gave (to explain a lost message). */
  outbox: Map<string, { status: string; resultTs: string | null; attempts: number }>;
  quotations: number;
  /** Where the story stood at the end: the quotation's and the negotiation's status. */
  quotationStatus: string | null;
  negotiationStatus: string | null;
  /** The approved PO's figures: the final decision as numbers. */
  po: { status: string; effectiveLandedCost: number; allocations: Record<string, number> } | null;
  seconds: number;
  /** From the instances being up to the story's end: the span kills are aimed at. */
  storyMs: number;
  /** Every request the stand-in delivered, acknowledged within (p99, ms). */
  ackP99Ms: number;
  /** The five slowest acknowledgements and what they acknowledged (to say where the time went). */
  slowestAcks: { what: string; ms: number }[];
  /** Posts Slack accepted (chat.postMessage), the floor of the story's wall time at Slack's pace of one a second. */
  posts: number;
  /**
   * Every delivery and Web API call from the story's start, App Home traffic left out (the concurrent clicks): where
   * the wall time went.
   */
  timeline: TimelineEntry[];
  /**
   * The longest time between two Slack calls from the upload to the story's end: a negotiation that stalls until a
   * lease expires is silent that long.
   */
  longestQuiet: Quiet;
  midRound: MidRoundOutcome | null;
}

export async function runStory(options: StoryRunOptions): Promise<StoryOutcome> {
  const started = performance.now();
  const sandbox = await startStoryStandIn({ seed: options.seed });
  options.prepare?.(sandbox);
  const count = options.instances ?? 1;
  const processes: ParleyProcess[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    processes.push(
      new ParleyProcess({
        port,
        instanceId: `${options.label}-${i + 1}`,
        logPath: options.logPath,
        preload: [
          ...(options.clockSkewMs ? [CLOCK_SKEW_PRELOAD] : []),
          ...(options.env?.PARLEY_CPU_PROFILE_DIR ? [CPU_PROFILE_PRELOAD] : []),
        ],
        env: {
          ...standInEnv(sandbox, port),
          ...options.db.env,
          SLACK_POST_INTERVAL_MS: '20',
          OUTBOX_LOCK_MS: '10000',
          NEGOTIATION_SEED: String(options.seed),
          ...options.env,
          PARLEY_CLOCK_SKEW_MS: String(options.clockSkewMs?.[i] ?? 0),
        },
      }),
    );
  }
  // The first start migrates and seeds; the others start after it, as a rolling deploy would.
  for (const process of processes) await process.start();
  const storyStarted = performance.now();
  const storyStartedAtMs = Date.now();
  const eventsUrls = processes.map((p) => `${p.url}/slack/events`);
  sandbox.setEventsUrl(eventsUrls[0] ?? '');
  sandbox.driver.redeliverForMs = 60_000;

  // Each delivery goes to a random instance, as a load balancer (or Slack's Socket Mode connections) would spread it.
  if (count > 1) {
    const send = sandbox.driver.send.bind(sandbox.driver);
    sandbox.driver.send = (body, contentType, tamper) => {
      sandbox.setEventsUrl(eventsUrls[Math.floor(Math.random() * eventsUrls.length)] ?? '');
      return send(body, contentType, tamper);
    };
  }

  if (options.retryEveryEvent) {
    const send = sandbox.driver.send.bind(sandbox.driver);
    sandbox.driver.send = async (body, contentType, tamper) => {
      if (!body.includes('"type":"event_callback"')) return send(body, contentType, tamper);
      const [first] = await Promise.all([
        send(body, contentType, tamper),
        send(body, contentType, { ...tamper, retryNum: 1, retryReason: 'http_timeout' }),
      ]);
      return first;
    };
  }
  let storyOver = false;
  const clicker = (async () => {
    const clicks = options.concurrentClicks;
    if (!clicks) return;
    const people = Object.values(PEOPLE).map((person) => person.id);
    while (!storyOver) {
      await Promise.all(
        Array.from({ length: clicks.count }, (_, i) =>
          sandbox.driver.openHome(people[i % people.length] ?? PEOPLE.buyer.id).catch(() => undefined),
        ),
      );
      await sleep(clicks.everyMs);
    }
  })();

  const midRoundBuyer = options.midRound ? startMidRoundBuyer(sandbox) : null;

  let kills = 0;
  const killer = (async () => {
    let previous = 0;
    for (const at of [...(options.killAtMs ?? [])].sort((a, b) => a - b)) {
      await sleep(at - previous);
      previous = at;
      const victim = processes[kills % processes.length];
      if (!victim) continue;
      await victim.kill();
      kills += 1;
      if (options.newInstanceIdOnRestart) victim.options.instanceId = `${options.label}-restart${kills}`;
      await victim.start();
    }
  })();

  const stage = {
    sandbox,
    settle: async () => {
      await sandbox.driver.idle();
      await settleProcesses(processes, options.settleTimeoutMs);
    },
  };
  let error: string | null = null;
  let threadTs: string | null = null;
  try {
    const bytes = await readFile(options.sample ?? STORY_SAMPLE);
    const story = await playStory(stage, { file: { name: 'quote.xlsx', bytes } });
    threadTs = story.threadTs;
    await killer;
    await stage.settle();
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    await killer.catch(() => {});
  }
  const storyMs = performance.now() - storyStarted;
  storyOver = true;
  await clicker;
  const midRoundClicks = (await midRoundBuyer?.stop()) ?? null;
  for (const process of processes) await process.stop();

  const thread = threadTs ? sandbox.model.thread(CHANNEL.id, threadTs) : [];
  const messageKeys = thread.flatMap((m) => {
    const metadata = m.metadata as { event_type?: string; event_payload?: { key?: unknown } } | undefined;
    return metadata?.event_type === OUTBOX_EVENT_TYPE && typeof metadata.event_payload?.key === 'string'
      ? [metadata.event_payload.key]
      : [];
  });
  const duplicates = countDuplicates(sandbox.model.calls);
  const posts = sandbox.model.calls.filter((call) => call.method === 'chat.postMessage' && call.ok).length;
  const slowestAcks = [...sandbox.driver.acks]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((ack) => ({ what: ack.what, ms: Math.round(ack.ms) }));
  const ackP99Ms = percentile(
    sandbox.driver.acks.map((ack) => ack.ms),
    99,
  );
  const postGap = minPostGapMs(sandbox.model.calls);
  const timeline = storyTimeline(sandbox.model.calls, sandbox.driver.acks, storyStartedAtMs, (what) =>
    /app_home_opened|views\.publish/.test(what),
  );
  const quiet = longestQuiet(sandbox.model.calls, storyStartedAtMs);
  const editsBeforePost = sandbox.model.calls.filter(
    (call) => call.method === 'chat.update' && call.error === 'message_not_found',
  ).length;
  await sandbox.close();

  const database = await options.db.open();
  try {
    const unsentRows = await database.prisma.slackOutbox.count({ where: { status: { not: 'sent' } } });
    const rows = await database.prisma.slackOutbox.findMany({
      select: { dedupeKey: true, status: true, resultTs: true, attempts: true },
    });
    const quotations = await database.prisma.quotation.count();
    const negotiation = await database.prisma.negotiation.findFirst({ select: { status: true } });
    const quotation = await database.prisma.quotation.findFirst({ select: { status: true } });
    const po = await database.prisma.purchaseOrder.findFirst({
      where: { status: { not: 'superseded' } },
      include: { allocations: { include: { supplier: { select: { name: true } } } } },
    });
    return {
      completed: error === null && po?.status === 'approved',
      error,
      kills,
      messageKeys,
      duplicateMessages: messageKeys.length - new Set(messageKeys).size,
      duplicates,
      minPostGapMs: postGap,
      postIntervalMs: Number(options.env?.SLACK_POST_INTERVAL_MS ?? '20'),
      editsBeforePost,
      unsentRows,
      outbox: new Map(rows.map(({ dedupeKey, ...row }) => [dedupeKey, row])),
      quotations,
      quotationStatus: quotation?.status ?? null,
      negotiationStatus: negotiation?.status ?? null,
      po: po
        ? {
            status: po.status,
            effectiveLandedCost: Number(po.effectiveLandedCost),
            allocations: Object.fromEntries(po.allocations.map((a) => [a.supplier.name, Number(a.fobCost)])),
          }
        : null,
      seconds: (performance.now() - started) / 1000,
      storyMs,
      ackP99Ms,
      slowestAcks,
      posts,
      timeline,
      longestQuiet: quiet,
      midRound: midRoundClicks && (await midRoundApplied(database, midRoundClicks)),
    };
  } finally {
    await database.close();
  }
}

/** Whether the mid-round buyer's clicks are in the database: the strategy chosen once, each answer as clicked. */
async function midRoundApplied(database: Database, clicks: MidRoundClicks): Promise<MidRoundOutcome> {
  const choices = clicks.curveball
    ? await database.prisma.auditLog.findMany({
        where: {
          action: 'negotiation.curveball_strategy_chosen',
          entityType: 'negotiation',
          entityId: clicks.curveball.negotiationId,
        },
        select: { data: true },
      })
    : [];
  const strategyOf = (data: unknown) =>
    typeof data === 'object' && data !== null ? (data as { strategyId?: unknown }).strategyId : undefined;
  const questions = await database.prisma.pendingQuestion.findMany({
    where: { id: { in: clicks.answers.map((a) => a.questionId) } },
    select: { id: true, status: true, answer: true },
  });
  const stored = new Map(questions.map((q) => [q.id, q]));
  return {
    ...clicks,
    choiceApplied: choices.length > 0 && choices.every((c) => strategyOf(c.data) === clicks.curveball?.strategyId),
    choiceAudits: choices.length,
    answersApplied: clicks.answers.filter(({ questionId, answer }) => {
      const question = stored.get(questionId);
      // A button's text may be the answer cut short (Slack's 75-character limit), ending in an ellipsis.
      return question?.status === 'answered' && (question.answer ?? '').startsWith(answer.replace(/…$/, ''));
    }).length,
  };
}

/**
 * Messages the reference run posted that this run did not (lost), by outbox key. Keys name database ids, which differ
 * between runs: they are compared with the ids blanked out (`neg:*:msg:17`).
 */
export function lostMessages(reference: StoryOutcome, run: StoryOutcome): string[] {
  const seen = new Set(run.messageKeys.map(keyShape));
  return [...new Set(reference.messageKeys.map(keyShape))].filter((key) => !seen.has(key));
}

const keyShape = (key: string) => key.replace(/[a-z0-9]{20,}/gi, '*');

/** What the run's outbox says of each lost message (never written, or written and sent as ts …), for the log. */
export function explainLost(run: StoryOutcome, lost: readonly string[]): string[] {
  return lost.map((shape) => {
    const rows = [...run.outbox].filter(([key]) => keyShape(key) === shape);
    if (rows.length === 0) return `${shape}: no outbox row`;
    return rows
      .map(([key, row]) => `${key}: ${row.status}, ts ${row.resultTs ?? '—'}, ${row.attempts} attempt(s)`)
      .join('; ');
  });
}

export function sameDecision(a: StoryOutcome, b: StoryOutcome): boolean {
  return JSON.stringify(a.po) === JSON.stringify(b.po);
}
