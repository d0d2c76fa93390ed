// `npm run demo`: the whole story with no credentials — Parley on the embedded database, its real Bolt receiver and
// WebClient talking to the local Slack stand-in, offline agents. A buyer shares a bundled quotation, settles the
// review, starts the negotiation and answers the questions; an approver approves the PO. Prints the thread as a
// person reads it and a one-line summary. `--json` prints it as JSON, `--xlsx PATH` shares another file, `--seed N`
// seeds the offline agents, `--interval MS` sets the per-channel post pace (the stand-in has no rate limit),
// `--premium accept|leave` says what the buyer does when Parley offers an award above the quote (default: leave it).
// `--png PATH` also writes a picture of the thread (dev/slack-stand-in/thread-picture.ts) to PATH.
// `--fresh` plays it on a brand-new workspace id instead of the seeded Valden Outdoor one: Parley sets the workspace
// up itself (nothing seeded), an approver imports the brand's own catalog CSV with `/parley catalog`, then the story.
// `--connect` plays it with the quoting supplier as a real counterpart: Ningbo Everbright's own organisation shares
// #valden-ningbo with the brand (Slack Connect), an approver connects it with `/parley suppliers`, the buyer sends each
// of Alex's drafts, and Wei Zhang of Ningbo writes once in words, then answers through Submit offer and accepts the
// approved PO in that channel; the two simulated competitors stay as market references. The supplier's channel is
// printed too, and the demo fails if it carries another supplier's name.
// The demo fails if the approved award costs more than the quote's landed cost without the buyer's click, and if any
// Web API call Parley made fails the call-log check (Slack's method specs and Block Kit limits).
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatMoney } from '../src/commerce/money.js';
import { SIMULATED_SUPPLIERS } from '../src/config/business-rules.js';
import { env } from '../src/config/env.js';
import { openAppDatabase } from '../src/db/app-database.js';
import { decide, decisionInputFromState } from '../src/decision/decide.js';
import { seedWorkspace } from '../src/db/seed.js';
import { loadCheckpoint } from '../src/db/stores/negotiation-store.js';
import { scopeToWorkspace } from '../src/db/scoped.js';
import type { NegotiationState } from '../src/negotiation/engine.js';
import { checkCallLog, formatProblems } from './slack-stand-in/call-log.js';
import { brandCatalogCsv, freshTeam, skusOfSample } from './slack-stand-in/fresh-workspace.js';
import { playCatalogImport } from './slack-stand-in/play-catalog-import.js';
import { playStory } from './slack-stand-in/play-story.js';
import { threadPicturePng } from './slack-stand-in/thread-picture.js';
import {
  addSupplierOrganisation,
  NINGBO,
  playConnectSupplier,
  SHARED_CHANNEL,
  weiAnswering,
} from './slack-stand-in/supplier-org.js';
import { CHANNEL, PEOPLE, startSandboxedParley, TEAM_ID } from './slack-stand-in/sandboxed-parley.js';

const DEFAULT_SAMPLE = new URL('../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    xlsx: { type: 'string' },
    seed: { type: 'string', default: '1' },
    interval: { type: 'string', default: '50' },
    premium: { type: 'string', default: 'leave' },
    fresh: { type: 'boolean', default: false },
    png: { type: 'string' },
    connect: { type: 'boolean', default: false },
  },
});
if (values.connect && (values.xlsx || values.fresh)) {
  throw new Error(
    '--connect plays the bundled quotation of Ningbo Everbright, the supplier it connects: not with --xlsx or --fresh',
  );
}
const premium = values.premium;
if (premium !== 'accept' && premium !== 'leave') throw new Error(`--premium must be accept or leave, not ${premium}`);
const seed = Number(values.seed);
if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number, not ${values.seed}`);

const nameOf = (userId: string) => Object.values(PEOPLE).find((p) => p.id === userId)?.name ?? userId;

const started = performance.now();
const filePath = values.xlsx ?? DEFAULT_SAMPLE.pathname;
const bytes = await readFile(filePath);
// Every call is logged and checked, so the demo says whether real Slack would have taken each one.
const callLogPath = env.SLACK_CALL_LOG ?? join(mkdtempSync(join(tmpdir(), 'parley-demo-')), 'calls.jsonl');
const team = values.fresh ? freshTeam() : undefined;
const db = await openAppDatabase(env);
// The seeded demo workspace; a fresh one gets nothing from here — Parley sets it up when it meets the team.
if (!team) {
  await seedWorkspace(db.prisma, { slackTeamId: TEAM_ID, brandName: env.SEED_BRAND_NAME });
  // Each story starts with no supplier connected (the database outlives the run): `--connect` connects Ningbo itself.
  await db.prisma.supplier.updateMany({
    where: { workspace: { slackTeamId: TEAM_ID }, slackChannelId: { not: null } },
    data: {
      slackChannelId: null,
      slackTeamId: null,
      connectedAt: null,
      connectedBySlackUserId: null,
      connectionLostAt: null,
    },
  });
}
const parley = await startSandboxedParley({
  db,
  callLogPath,
  postIntervalMs: Number(values.interval),
  negotiationSeed: seed,
  team,
});
try {
  const setup: string[] = [];
  if (team) {
    setup.push(`${team.name} installs Parley: a new Slack workspace (${team.id}), nothing seeded`);
    const catalog = await brandCatalogCsv({ brand: team.name, cover: await skusOfSample(filePath) });
    const fileName = `${team.name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}catalog.csv`;
    const imported = await playCatalogImport(parley, {
      by: PEOPLE.approver,
      channelId: CHANNEL.id,
      file: { name: fileName, bytes: Buffer.from(catalog.csv) },
    });
    setup.push(...imported.actions, `  → ${imported.outcome.join(' ').slice(0, 300)}`);
    const workspace = await db.prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: team.id } });
    const products = await db.prisma.product.count({ where: { workspaceId: workspace.id } });
    if (products !== catalog.products) {
      throw new Error(`the catalog import left ${products} products, not the CSV's ${catalog.products}`);
    }
  }
  if (values.connect) {
    addSupplierOrganisation(parley.sandbox.model, [PEOPLE.approver.id, PEOPLE.buyer.id]);
    setup.push(await playConnectSupplier(parley, PEOPLE.approver.id, CHANNEL.id));
  }
  const story = await playStory(parley, {
    file: { name: basename(filePath), bytes },
    premium,
    ...(values.connect ? { suppliers: [weiAnswering()] } : {}),
  });
  const { sandbox } = parley;
  const channels = [CHANNEL, ...(values.connect ? [SHARED_CHANNEL] : [])].map((c) => sandbox.channelJson(c.id));
  const supplierChannel = channels.find((c) => c.id === SHARED_CHANNEL.id);
  const leaked = SIMULATED_SUPPLIERS.filter((other) =>
    supplierChannel?.messages.some((m) => m.text.includes(other.name)),
  );
  const calls = sandbox.model.calls;
  const failed = calls.filter((call) => !call.ok).length;
  const problems = checkCallLog(callLogPath);
  const quotation = await db.prisma.quotation.findFirstOrThrow({
    where: { slackChannelId: CHANNEL.id, slackThreadTs: story.threadTs },
    include: { negotiation: { include: { purchaseOrders: { include: { approvals: true } } } } },
  });
  const po = quotation.negotiation?.purchaseOrders.find((p) => p.status === 'approved') ?? null;
  const accepted = po
    ? await db.prisma.purchaseOrderAllocation.findMany({
        where: { purchaseOrderId: po.id, acceptedAt: { not: null } },
        include: { supplier: { select: { name: true } } },
      })
    : [];
  const state = quotation.negotiation
    ? (await loadCheckpoint(scopeToWorkspace(db.prisma, quotation.workspaceId), quotation.negotiation.id)).state
    : null;
  const versusQuote = po && state ? againstQuote(state, po) : '';
  const counterparts = state
    ? state.profiles.map((p) => (p.counterpart === 'connected' ? `${p.name} (connected)` : p.name)).join(', ')
    : 'nobody';
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const summary =
    `${basename(filePath)} → ${quotation.negotiation?.status ?? quotation.status} negotiation with ${counterparts}, ` +
    (po
      ? `${po.number} approved by ${po.approvals.map((a) => nameOf(a.approverSlackUserId)).join(' and ')} ` +
        `(${formatMoney(Number(po.effectiveLandedCost), po.currency)} landed${versusQuote})` +
        accepted.map((a) => `, accepted by ${a.supplier.name} in #${SHARED_CHANNEL.name}`).join('')
      : 'no PO approved') +
    ` · ${calls.length} Web API calls, ${failed} failed, ${problems.length} against Slack's specs · ${seconds} s`;

  if (values.json) {
    // One line: the last line of the output is the whole JSON object.
    console.log(
      JSON.stringify({
        setup,
        actions: story.actions,
        thread: sandbox.threadJson(CHANNEL.id, story.threadTs),
        channels,
        summary,
      }),
    );
  } else {
    console.log(`Parley demo — ${db.kind} database, the local Slack stand-in, offline agents (seed ${seed})\n`);
    if (setup.length > 0) {
      console.log('Setting up:');
      for (const step of setup) console.log(`  • ${step}`);
      console.log('');
    }
    console.log('What people did:');
    for (const action of story.actions) console.log(`  • ${action}`);
    console.log(`\nThe thread in #${CHANNEL.name}, as a person reads it:\n`);
    console.log(sandbox.renderThread(CHANNEL.id, story.threadTs));
    if (supplierChannel) {
      console.log(`\n#${SHARED_CHANNEL.name}, shared with ${NINGBO}, as Wei reads it:\n`);
      for (const root of sandbox.model.topLevel(SHARED_CHANNEL.id))
        console.log(sandbox.renderThread(SHARED_CHANNEL.id, root.ts));
    }
    console.log(`\n${summary}`);
  }
  if (values.png) {
    const picture = await threadPicturePng(
      `#${CHANNEL.name} · the thread of ${basename(filePath)}`,
      sandbox.threadJson(CHANNEL.id, story.threadTs),
    );
    await writeFile(values.png, picture);
  }
  if (leaked.length > 0) {
    console.error(`The supplier's channel names other suppliers: ${leaked.map((o) => o.name).join(', ')}`);
    process.exitCode = 1;
  }
  if (values.connect && accepted.length === 0) {
    console.error('The supplier did not accept the PO in its channel');
    process.exitCode = 1;
  }
  if (problems.length > 0) {
    console.error(`Web API calls real Slack would refuse (${callLogPath}):\n${formatProblems(problems)}`);
    process.exitCode = 1;
  }
  if (team && failed > 0) {
    // A fresh install must work as a real one would: every call answered ok.
    const errors = calls.filter((call) => !call.ok).map((call) => `${call.method}: ${call.error ?? call.status}`);
    console.error(`Failed Web API calls:\n  ${[...new Set(errors)].join('\n  ')}`);
    process.exitCode = 1;
  }
} finally {
  await parley.stop();
  await db.close();
}

/**
 * ", $4,165.01 below the quote's landed cost" — or above it with the buyer's consent. Paying more than the quote
 * without the buyer's click is the one thing the demo must never show: it throws instead.
 */
function againstQuote(state: NegotiationState, po: { effectiveLandedCost: unknown; currency: string }): string {
  const decided = decide(decisionInputFromState(state));
  const quote = decided.ok ? decided.numbers.limits.quoteLandedCost : null;
  if (quote === null) return '';
  const landed = Number(po.effectiveLandedCost);
  const over = Math.round((landed - quote) * 100) / 100;
  const consented = state.mandate.premiumConsents.reduce((most, c) => Math.max(most, c.amountOverQuote), 0);
  if (over > consented + 0.005) {
    throw new Error(
      `the approved award is ${formatMoney(over, po.currency)} above the quote without the buyer's click`,
    );
  }
  const money = (amount: number) => formatMoney(Math.abs(amount), po.currency);
  return over <= 0
    ? `, ${money(over)} below the quote's landed cost`
    : `, ${money(over)} above the quote's landed cost, accepted by the buyer`;
}
