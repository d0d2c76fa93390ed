// When Parley has nothing left to do in one thread. Under load a story cannot wait for the whole of Parley to fall
// quiet — with fifty buyers at work it never does, and the stories would advance in lock-step — so each buyer waits
// for their own thread, as a person watching it would. Read from the database while Parley runs (PostgreSQL only:
// PGlite is one process's database): one query per look serves every waiting story.
import type { PrismaClient } from '../../src/db/client.js';
import { sleep } from './parley-process.js';

export interface ThreadRef {
  channel: string;
  ts: string;
}

export interface ThreadSettler {
  /** Resolves after two looks in a row find nothing left to do in the thread. */
  settled(thread: ThreadRef): Promise<void>;
  close(): void;
}

/** A quotation's state as one look reads it. */
export interface ThreadLook {
  quotationStatus: string;
  negotiationStatus: string | null;
  openQuestions: number;
  /** Outbox rows of the thread (its quotation's, negotiation's and POs' keys) not sent yet. */
  unsentRows: number;
}

/**
 * Nothing left to do: the file is read; the negotiation is not running (it waits for the buyer's answer, or its
 * conclusion is written — the quotation leaves `negotiating` in the same transaction); every message is sent.
 */
export function isSettled(look: ThreadLook): boolean {
  if (look.quotationStatus === 'received' || look.quotationStatus === 'parsing') return false;
  if (look.unsentRows > 0) return false;
  if (look.quotationStatus !== 'negotiating') return true;
  return look.negotiationStatus === 'paused' && look.openQuestions > 0;
}

interface Waiter {
  key: string;
  /** Only looks begun after this count (an earlier one may predate the click the story waits on). */
  since: number;
  quietLooks: number;
  deadline: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export function createThreadSettler(
  prisma: PrismaClient,
  options: { pollMs?: number; timeoutMs?: number } = {},
): ThreadSettler {
  const pollMs = options.pollMs ?? 250;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const waiters = new Set<Waiter>();
  let closed = false;
  let loop: Promise<void> | null = null;

  async function lookAll(): Promise<Map<string, ThreadLook>> {
    const [quotations, unsent] = await Promise.all([
      prisma.quotation.findMany({
        select: {
          id: true,
          status: true,
          slackChannelId: true,
          slackThreadTs: true,
          negotiation: {
            select: {
              id: true,
              status: true,
              pendingQuestions: { where: { status: 'open' }, select: { id: true } },
              purchaseOrders: { select: { id: true } },
            },
          },
        },
      }),
      prisma.slackOutbox.findMany({ where: { status: { in: ['pending', 'sending'] } }, select: { dedupeKey: true } }),
    ]);
    const looks = new Map<string, ThreadLook>();
    for (const quotation of quotations) {
      const negotiation = quotation.negotiation;
      const prefixes = [
        `q:${quotation.id}:`,
        ...(negotiation ? [`neg:${negotiation.id}:`] : []),
        ...(negotiation?.purchaseOrders.map((po) => `po:${po.id}:`) ?? []),
      ];
      looks.set(`${quotation.slackChannelId}/${quotation.slackThreadTs}`, {
        quotationStatus: quotation.status,
        negotiationStatus: negotiation?.status ?? null,
        openQuestions: negotiation?.pendingQuestions.length ?? 0,
        unsentRows: unsent.filter((row) => prefixes.some((prefix) => row.dedupeKey.startsWith(prefix))).length,
      });
    }
    return looks;
  }

  async function run(): Promise<void> {
    while (!closed && waiters.size > 0) {
      const begun = performance.now();
      const looks = await lookAll().catch(() => new Map<string, ThreadLook>());
      for (const waiter of waiters) {
        if (waiter.since > begun) continue;
        const look = looks.get(waiter.key);
        waiter.quietLooks = look && isSettled(look) ? waiter.quietLooks + 1 : 0;
        if (waiter.quietLooks >= 2) {
          waiters.delete(waiter);
          waiter.resolve();
        } else if (Date.now() > waiter.deadline) {
          waiters.delete(waiter);
          waiter.reject(
            new Error(`thread ${waiter.key} did not settle within ${timeoutMs} ms (${JSON.stringify(look)})`),
          );
        }
      }
      await sleep(pollMs);
    }
    loop = null;
  }

  return {
    settled(thread) {
      return new Promise<void>((resolve, reject) => {
        waiters.add({
          key: `${thread.channel}/${thread.ts}`,
          since: performance.now(),
          quietLooks: 0,
          deadline: Date.now() + timeoutMs,
          resolve,
          reject,
        });
        loop ??= run();
      });
    },
    close() {
      closed = true;
      for (const waiter of waiters) waiter.reject(new Error('the thread settler was closed'));
      waiters.clear();
    },
  };
}
