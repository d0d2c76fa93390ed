// Many buyers at once: `uploads` quotations shared across `channels` channels within a few seconds, each story then
// played to its approved PO — every click a signed request to Parley's receiver. Reports how fast each request was
// acknowledged, how fast Parley posted per channel, and whether anything was lost or doubled.
import { readFile } from 'node:fs/promises';
import { playStory, type StoryStage } from '../slack-stand-in/play-story.js';
import { CHANNEL, freePort, standInEnv, startStoryStandIn } from '../slack-stand-in/sandboxed-parley.js';
import { OUTBOX_EVENT_TYPE } from '../../src/outbox/index.js';
import type { BenchDatabase } from './bench-databases.js';
import { ParleyProcess, settleProcesses } from './parley-process.js';
import { STORY_SAMPLE } from './story-run.js';
import { createThreadSettler } from './thread-settler.js';
import { countDuplicates, type DuplicateCounts } from './call-log-figures.js';

export interface LoadOptions {
  db: BenchDatabase;
  uploads: number;
  channels: number;
  /** Rounds the buyers pick in the start modal (fewer rounds, fewer posts at Slack's pace). */
  rounds: number;
  /** Share of chat.postMessage calls the stand-in answers with 429 (Retry-After: 1). */
  rateLimitShare: number;
  instances?: number;
  logPath?: string;
}

export interface LoadOutcome {
  uploads: number;
  completed: number;
  ackP50Ms: number;
  ackP99Ms: number;
  /** Posts per second per channel at the busiest 10-second window of the busiest channel. */
  maxMsgPerSecPerChannel: number;
  /** Acknowledgement times by what was delivered, slowest first. */
  ackBreakdown: { what: string; count: number; p50: number; max: number }[];
  rateLimited: number;
  duplicateMessages: number;
  /** Repeated effects of any kind (posts, edits, uploads, reactions) in the stand-in's call log. */
  duplicates: DuplicateCounts;
  unsentRows: number;
  errors: string[];
  seconds: number;
}

const PACE_WINDOW_MS = 10_000;

export async function runLoad(options: LoadOptions): Promise<LoadOutcome> {
  const started = performance.now();
  const sandbox = await startStoryStandIn({ extraChannels: options.channels - 1, seed: 7 });
  if (options.rateLimitShare > 0) {
    sandbox.faults.set(
      'chat.postMessage',
      { status: 429, retryAfterSeconds: 1 },
      { probability: options.rateLimitShare },
    );
  }
  const processes: ParleyProcess[] = [];
  for (let i = 0; i < (options.instances ?? 1); i++) {
    const port = await freePort();
    processes.push(
      new ParleyProcess({
        port,
        instanceId: `load-${i + 1}`,
        logPath: options.logPath,
        env: { ...standInEnv(sandbox, port), ...options.db.env, NEGOTIATION_SEED: '3' },
      }),
    );
  }
  for (const process of processes) await process.start();
  const urls = processes.map((p) => `${p.url}/slack/events`);
  const send = sandbox.driver.send.bind(sandbox.driver);
  sandbox.driver.send = (body, contentType, tamper) => {
    sandbox.setEventsUrl(urls[Math.floor(Math.random() * urls.length)] ?? '');
    return send(body, contentType, tamper);
  };
  sandbox.driver.redeliverForMs = 30_000;
  const settleAll = async () => {
    await sandbox.driver.idle();
    await settleProcesses(processes, 600_000);
  };
  // Each buyer waits for their own thread (PostgreSQL can be read while Parley runs; PGlite cannot).
  const watcher = options.db.kind === 'postgres' ? await options.db.open() : null;
  const settler = watcher ? createThreadSettler(watcher.prisma) : null;
  const stage: StoryStage = {
    sandbox,
    settle: (thread) => (settler && thread ? settler.settled(thread) : settleAll()),
  };

  const bytes = await readFile(STORY_SAMPLE);
  const channelIds = [CHANNEL.id, ...Array.from({ length: options.channels - 1 }, (_, i) => `C0SOURCING${i + 2}`)];
  const errors: string[] = [];
  const threads: { channel: string; ts: string }[] = [];
  const stories = Array.from({ length: options.uploads }, async (_, i) => {
    const channelId = channelIds[i % channelIds.length] ?? CHANNEL.id;
    // Uploads arrive over a few seconds, not all in the same millisecond.
    await new Promise((resolve) => setTimeout(resolve, Math.floor((i / options.uploads) * 3_000)));
    try {
      const story = await playStory(stage, {
        file: { name: `quote-${i + 1}.xlsx`, bytes },
        channelId,
        rounds: options.rounds,
      });
      threads.push({ channel: channelId, ts: story.threadTs });
    } catch (error) {
      errors.push(`upload ${i + 1}: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  await Promise.all(stories);
  settler?.close();
  await watcher?.close();
  await settleAll().catch((error: unknown) => errors.push(`settle: ${String(error)}`));
  for (const process of processes) await process.stop();

  const acks = sandbox.driver.acks.map((ack) => ack.ms).sort((a, b) => a - b);
  const byKind = new Map<string, number[]>();
  for (const ack of sandbox.driver.acks) byKind.set(ack.what, [...(byKind.get(ack.what) ?? []), ack.ms]);
  const ackBreakdown = [...byKind].map(([what, times]) => {
    const sorted = times.sort((a, b) => a - b);
    return { what, count: sorted.length, p50: round(percentile(sorted, 0.5)), max: round(sorted.at(-1) ?? 0) };
  });
  const posts = sandbox.model.calls.filter((c) => c.method === 'chat.postMessage' && c.ok);
  let maxRate = 0;
  for (const channel of channelIds) {
    const times = posts.filter((c) => (c.args as { channel?: string }).channel === channel).map((c) => c.atMs);
    for (let i = 0, j = 0; i < times.length; i++) {
      while ((times[i] ?? 0) - (times[j] ?? 0) >= PACE_WINDOW_MS) j++;
      maxRate = Math.max(maxRate, (i - j + 1) / (PACE_WINDOW_MS / 1000));
    }
  }
  let duplicateMessages = 0;
  for (const thread of threads) {
    const keys = sandbox.model.thread(thread.channel, thread.ts).flatMap((m) => {
      const metadata = m.metadata as { event_type?: string; event_payload?: { key?: unknown } } | undefined;
      return metadata?.event_type === OUTBOX_EVENT_TYPE ? [String(metadata.event_payload?.key)] : [];
    });
    duplicateMessages += keys.length - new Set(keys).size;
  }
  const rateLimited = sandbox.model.calls.filter((c) => c.status === 429).length;
  const duplicates = countDuplicates(sandbox.model.calls);
  await sandbox.close();

  const database = await options.db.open();
  try {
    const completed = await database.prisma.purchaseOrder.count({ where: { status: 'approved' } });
    const unsentRows = await database.prisma.slackOutbox.count({ where: { status: { not: 'sent' } } });
    return {
      uploads: options.uploads,
      completed,
      ackP50Ms: round(percentile(acks, 0.5)),
      ackP99Ms: round(percentile(acks, 0.99)),
      ackBreakdown: ackBreakdown.sort((a, b) => b.max - a.max),
      maxMsgPerSecPerChannel: round(maxRate),
      rateLimited,
      duplicateMessages,
      duplicates,
      unsentRows,
      errors,
      seconds: round((performance.now() - started) / 1000),
    };
  } finally {
    await database.close();
  }
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The p-th percentile (0–1) of ascending `sorted` (nearest rank, lower). */
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
