// Two real suppliers against each other, end to end through the stand-in: Dhaka Knitwear is connected to its Slack
// Connect channel; the buyer shares Ningbo Everbright's quotation, and an approver connects Ningbo from the review
// card (Connect supplier…, Ningbo already picked). The start modal lists Dhaka, ticked, and the buyer starts. Dhaka
// is asked to quote the lines in its channel and answers with Submit offer, dearer than Ningbo and, after its first
// offer, leaving a line out; each side's channel shows nothing of the other; each offer on record is what its
// supplier submitted; the award and PO go to the supplier whose own offer wins, and nothing of the PO reaches the other.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import type { SandboxView } from '../../dev/slack-stand-in/model.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { SIMULATED_SUPPLIERS } from '../../src/config/business-rules.js';
import { loadCheckpoint } from '../../src/db/stores/negotiation-store.js';
import { scopeToWorkspace } from '../../src/db/scoped.js';
import { ACTION, BLOCK } from '../../src/slack/ids.js';
import {
  addSupplierOrganisation,
  DHAKA_ORG,
  NINGBO,
  NINGBO_ORG,
  playConnectSupplier,
  quotingAt,
  weiAnswering,
} from '../../dev/slack-stand-in/supplier-org.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);
/** Dhaka's first price for every line: far above Ningbo's, so Ningbo's own offer wins the award. */
const DHAKA_FIRST_PRICE = 95;

const running = useSandboxedParley({
  afterStart: async ({ db, parley }) => {
    await db.prisma.workspace.update({
      where: { slackTeamId: TEAM_ID },
      data: { settings: { approvers: [PEOPLE.approver.id, PEOPLE.secondApprover.id] } },
    });
    for (const org of [NINGBO_ORG, DHAKA_ORG]) {
      addSupplierOrganisation(parley.sandbox.model, [PEOPLE.approver.id, PEOPLE.buyer.id], org);
    }
  },
});

const seen = (channelId: string) =>
  JSON.stringify(running.parley.sandbox.model.messages(channelId).map((m) => [m.text, m.blocks]));

describe('negotiating with two connected suppliers', () => {
  it('asks the invited one to quote in its own channel and records each side as it submitted', async () => {
    const { sandbox } = running.parley;
    // Dhaka is connected first; Ningbo, whose quotation it is, from its review card once the file is read.
    await playConnectSupplier(running.parley, PEOPLE.approver.id, CHANNEL.id, DHAKA_ORG);

    const dhakaForms: SandboxView[] = [];
    const dhakaAnswers = quotingAt(DHAKA_FIRST_PRICE);
    const story = await playStory(running.parley, {
      file: { name: 'ningbo-quote.xlsx', bytes: await readFile(SAMPLE) },
      connectFromReview: { approverId: PEOPLE.approver.id, channelId: NINGBO_ORG.channel.id },
      suppliers: [
        weiAnswering(),
        {
          person: DHAKA_ORG.person.id,
          channelId: DHAKA_ORG.channel.id,
          answer: (form) => {
            dhakaForms.push(form);
            const values = dhakaAnswers(form);
            // After its first offer, Dhaka stops offering the first line: its later totals are for fewer lines.
            const [first] = Object.keys(values).filter((id) => id.startsWith(`${BLOCK.offerPrice}:`));
            return dhakaForms.length > 1 && first ? { ...values, [first]: '' } : values;
          },
        },
      ],
    });
    expect(story.actions.join('\n')).toContain(`${DHAKA_ORG.person.realName} (the supplier) clicks`);
    expect(story.actions.join('\n')).toContain('clicks [Connect supplier…] in the review');
    const ningbo = await running.db.prisma.supplier.findFirstOrThrow({ where: { name: NINGBO } });
    expect(ningbo).toMatchObject({ slackChannelId: NINGBO_ORG.channel.id, slackTeamId: NINGBO_ORG.teamId });

    // The start modal listed Dhaka, ticked, and the negotiation took it as a real counterpart.
    const negotiation = await running.db.prisma.negotiation.findFirstOrThrow();
    expect(negotiation.status).toBe('completed');
    const ws = scopeToWorkspace(running.db.prisma, negotiation.workspaceId);
    const { state } = await loadCheckpoint(ws, negotiation.id);
    expect(state.profiles.map((p) => [p.name, p.counterpart])).toEqual([
      [NINGBO, 'connected'],
      [DHAKA_ORG.name, 'connected'],
    ]);
    const dhaka = state.profiles[1];
    if (!dhaka) throw new Error('no Dhaka in the negotiation');

    // Dhaka's offers are what Rahim submitted: the first at its own price for every line, then 1% under the last.
    const offers = state.suppliers[dhaka.code]?.offers ?? [];
    expect(offers.length).toBe(dhakaForms.length);
    expect(offers.length).toBeGreaterThan(0);
    expect(offers[0]?.lines.map((line) => line.unitPrice)).toEqual(state.baseline.lines.map(() => DHAKA_FIRST_PRICE));
    const quoted = state.baseline.lines.length;
    for (let i = 1; i < offers.length; i++) {
      const before = new Map(offers[i - 1]?.lines.map((line) => [line.sku, line.unitPrice]));
      // The line left empty is "not offered", never backfilled from the last offer or the quotation.
      expect(offers[i]?.lines.map((line) => line.sku)).toEqual(state.baseline.lines.slice(1).map((line) => line.sku));
      for (const line of offers[i]?.lines ?? []) {
        expect(line.unitPrice, line.sku).toBe(Math.round((before.get(line.sku) ?? 0) * 99) / 100);
      }
    }
    expect(offers.length).toBeGreaterThan(1);
    // The buyer's thread says what the smaller total is for, and never calls dropping a line a price cut.
    const transcript = sandbox.renderThread(CHANNEL.id, story.threadTs);
    const dhakaTurns = transcript.split('\n').filter((line) => line.includes(`*Dhaka Knitwear Ltd:*`));
    expect(dhakaTurns.length).toBe(offers.length);
    const dhakaOffers = transcript.split('\n').filter((line) => line.includes(`for ${quoted - 1} of ${quoted} lines`));
    // The first offer for fewer lines has no change beside it; the next ones, for the same lines, do.
    const [firstPartial, ...laterPartial] = dhakaOffers.filter((line) => line.includes(':moneybag:'));
    expect(firstPartial).toBeDefined();
    expect(firstPartial).not.toContain('vs their last offer');
    for (const line of laterPartial) expect(line).toContain('(−1.0% vs their last offer)');
    // Its first form asked for every line and offered no price of anyone's.
    const firstForm = dhakaForms[0];
    const priceFields = (
      (firstForm?.view.blocks ?? []) as { block_id?: string; element?: { initial_value?: string } }[]
    ).filter((block) => block.block_id?.startsWith(`${BLOCK.offerPrice}:`));
    expect(priceFields.length).toBe(state.baseline.lines.length);
    expect(priceFields.every((field) => field.element?.initial_value === undefined)).toBe(true);

    // Each channel is discreet about the other supplier, the simulated references and the mandate.
    const ningboChannel = seen(NINGBO_ORG.channel.id);
    const dhakaChannel = seen(DHAKA_ORG.channel.id);
    expect(dhakaChannel).toContain('an AI agent negotiating for');
    expect(ningboChannel).not.toContain('Dhaka');
    expect(dhakaChannel).not.toContain('Ningbo');
    for (const channel of [ningboChannel, dhakaChannel]) {
      for (const other of SIMULATED_SUPPLIERS) expect(channel).not.toContain(other.name);
      expect(channel).not.toMatch(/walk-away|target total|score/i);
    }
    // Ningbo's quoted prices never reach Dhaka: not one of its quotation's unit prices stands in Dhaka's channel.
    for (const line of state.baseline.lines) {
      expect(dhakaChannel, line.sku).not.toContain(line.unitPrice.toFixed(2));
    }

    // The award stands on Ningbo's own last offer; Dhaka, dearer, gets no PO in its channel and nothing to accept.
    const allocations = await running.db.prisma.purchaseOrderAllocation.findMany({
      include: { supplier: { select: { name: true } } },
    });
    expect(allocations.map((a) => a.supplier.name)).toEqual([NINGBO]);
    expect(allocations[0]?.acceptedAt).toBeInstanceOf(Date);
    const dhakaButtons = sandbox.model.messages(DHAKA_ORG.channel.id).flatMap((m) => buttonsIn(m));
    expect(dhakaButtons.some((b) => b.actionId === ACTION.poSupplierAccept)).toBe(false);
    expect(dhakaChannel).not.toMatch(/PO-\d{4}-\d{4}/);

    expect(sandbox.model.calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
  }, 300_000);
});
