// `npm run demo`: the whole story with no credentials — Parley on the embedded database, its real Bolt receiver and
// WebClient talking to the local Slack stand-in, offline agents. A buyer shares a bundled quotation, settles the
// review, starts the negotiation and answers the questions; an approver approves the PO. Prints the thread as a
// person reads it and a one-line summary. `--json` prints it as JSON, `--xlsx PATH` shares another file, `--seed N`
// seeds the offline agents, `--interval MS` sets the per-channel post pace (the stand-in has no rate limit).
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { env } from '../src/config/env.js';
import { openAppDatabase } from '../src/db/app-database.js';
import { playStory } from './slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, startSandboxedParley } from './slack-stand-in/sandboxed-parley.js';

const DEFAULT_SAMPLE = new URL('../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    xlsx: { type: 'string' },
    seed: { type: 'string', default: '1' },
    interval: { type: 'string', default: '50' },
  },
});
const seed = Number(values.seed);
if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number, not ${values.seed}`);

const nameOf = (userId: string) => Object.values(PEOPLE).find((p) => p.id === userId)?.name ?? userId;

const started = performance.now();
const filePath = values.xlsx ?? DEFAULT_SAMPLE.pathname;
const bytes = await readFile(filePath);
const db = await openAppDatabase(env);
const parley = await startSandboxedParley({
  db,
  callLogPath: env.SLACK_CALL_LOG,
  postIntervalMs: Number(values.interval),
  negotiationSeed: seed,
});
try {
  const story = await playStory(parley, { file: { name: basename(filePath), bytes } });
  const { sandbox } = parley;
  const calls = sandbox.model.calls;
  const failed = calls.filter((call) => !call.ok).length;
  const quotation = await db.prisma.quotation.findFirstOrThrow({
    where: { slackChannelId: CHANNEL.id, slackThreadTs: story.threadTs },
    include: { negotiation: { include: { purchaseOrders: { include: { approvals: true } } } } },
  });
  const po = quotation.negotiation?.purchaseOrders.find((p) => p.status === 'approved') ?? null;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const summary =
    `${basename(filePath)} → ${quotation.negotiation?.status ?? quotation.status} negotiation with 3 suppliers, ` +
    (po
      ? `${po.number} approved by ${po.approvals.map((a) => nameOf(a.approverSlackUserId)).join(' and ')} ` +
        `(${po.currency} ${Number(po.effectiveLandedCost).toLocaleString('en-US', { minimumFractionDigits: 2 })} landed)`
      : 'no PO approved') +
    ` · ${calls.length} Web API calls, ${failed} failed · ${seconds} s`;

  if (values.json) {
    console.log(
      JSON.stringify(
        { actions: story.actions, thread: sandbox.threadJson(CHANNEL.id, story.threadTs), summary },
        null,
        2,
      ),
    );
  } else {
    console.log(`Parley demo — ${db.kind} database, the local Slack stand-in, offline agents (seed ${seed})\n`);
    console.log('What people did:');
    for (const action of story.actions) console.log(`  • ${action}`);
    console.log(`\nThe thread in #${CHANNEL.name}, as a person reads it:\n`);
    console.log(sandbox.renderThread(CHANNEL.id, story.threadTs));
    console.log(`\n${summary}`);
  }
} finally {
  await parley.stop();
  await db.close();
}
