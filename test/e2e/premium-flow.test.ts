// The mandate in Slack, end to end through the local stand-in and the real Bolt receiver: the buyer starts with a
// mandate from the modal; when the mode's best award costs more than the quote, the recommendation (or the no-award
// message) offers it behind a button, and only the buyer's click makes it the award — a new decision and PO draft
// within the premium accepted. With a walk-away nothing can meet, the thread says there is no award and no PO is
// drafted, and the quotation is concluded, not failed.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { decide, decisionInputFromState } from '../../src/decision/decide.js';
import { loadCheckpoint } from '../../src/db/stores/negotiation-store.js';
import { scopeToWorkspace } from '../../src/db/scoped.js';
import { ACTION, BLOCK } from '../../src/slack/ids.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);

const running = useSandboxedParley({ negotiationSeed: 1 });

async function quotationOf(threadTs: string) {
  return running.db.prisma.quotation.findFirstOrThrow({
    where: { slackThreadTs: threadTs },
    include: { negotiation: { include: { purchaseOrders: { orderBy: { createdAt: 'asc' } } } } },
  });
}

describe('the mandate in Slack, end to end', () => {
  it('offers the faster award above the quote behind a button, and awards it only after the buyer’s click', async () => {
    const bytes = await readFile(SAMPLE);
    const story = await playStory(running.parley, {
      file: { name: 'quote-speed.xlsx', bytes },
      start: { [BLOCK.startMode]: 'speed' },
      premium: 'accept',
    });
    const { model } = running.parley.sandbox;
    const thread = model.thread(CHANNEL.id, story.threadTs);

    // The offer: a button with the decision's words, under the recommendation or the no-award message.
    const offering = thread.filter((m) => buttonsIn(m).some((b) => b.actionId === ACTION.decisionAcceptPremium));
    expect(offering.length).toBeGreaterThan(0);
    const premium = buttonsIn(offering[0] ?? { blocks: [] }).find((b) => b.actionId === ACTION.decisionAcceptPremium);
    expect(premium?.text).toMatch(/^Pay \$[\d,]+\.\d\d more (?:for \d+ days sooner|than the quote to meet|for )/);
    expect(story.actions).toContain(`${PEOPLE.buyer.name} clicks [${premium?.text ?? ''}]`);

    const quotation = await quotationOf(story.threadTs);
    const negotiation = quotation.negotiation;
    if (!negotiation) throw new Error('no negotiation');
    const { state } = await loadCheckpoint(scopeToWorkspace(running.db.prisma, quotation.workspaceId), negotiation.id);
    expect(state.mode).toBe('speed');
    const [consent] = state.mandate.premiumConsents;
    expect(state.mandate.premiumConsents).toHaveLength(1);
    expect(consent).toMatchObject({ by: PEOPLE.buyer.id });

    // The award after the click is the approved PO, within the quote's landed cost + the premium accepted; any PO
    // drafted before it (the award within the quote) was replaced, never approved.
    const pos = negotiation.purchaseOrders;
    const approved = pos.filter((po) => po.status === 'approved');
    expect(approved).toHaveLength(1);
    expect(pos.filter((po) => po.status !== 'approved').every((po) => po.status === 'superseded')).toBe(true);
    // The decision again, from the saved checkpoint: the limits the award was held to.
    const decided = decide(decisionInputFromState(state));
    if (!decided.ok) throw new Error(decided.message);
    const { limits } = decided.numbers;
    expect(limits.consentedPremium).toBe(consent?.amountOverQuote);
    expect(limits.consentUsed).toMatchObject({ by: PEOPLE.buyer.id });
    expect(Number(approved[0]?.effectiveLandedCost)).toBe(decided.numbers.allocation.effectiveLandedCost);
    expect(decided.numbers.allocation.effectiveLandedCost).toBeLessThanOrEqual(
      (limits.quoteLandedCost ?? 0) + limits.consentedPremium + 0.005,
    );
    const recommendations = thread.filter((m) => buttonsIn(m).some((b) => b.actionId === ACTION.decisionOpenPo));
    expect(JSON.stringify(recommendations.at(-1)?.blocks)).toContain(`accepted by <@${PEOPLE.buyer.id}>`);

    expect(model.calls.filter((call) => !call.ok)).toEqual([]);
    expect(model.calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
    const keys = thread.flatMap((m) => (m.metadata ? [JSON.stringify(m.metadata)] : []));
    expect(new Set(keys).size).toBe(keys.length);
  }, 240_000);

  it('says there is no award when the walk-away is below anything on offer, and drafts no PO', async () => {
    const bytes = await readFile(SAMPLE);
    const story = await playStory(running.parley, {
      file: { name: 'quote-walk-away.xlsx', bytes },
      start: { [BLOCK.startWalkAwayTotal]: '1000' },
    });
    const { model } = running.parley.sandbox;
    const thread = model.thread(CHANNEL.id, story.threadTs);
    const noAward = thread.filter((m) => (m.blocks ?? []).some((b) => b.block_id === BLOCK.decisionNoAward));
    expect(noAward).toHaveLength(1);
    expect(noAward[0]?.text).toMatch(/^No award within your mandate: /);
    expect(JSON.stringify(noAward[0]?.blocks)).toContain('above the $1,000.00 walk-away');
    expect(buttonsIn(noAward[0] ?? { blocks: [] })).toEqual([]);
    expect(thread.some((m) => buttonsIn(m).some((b) => b.actionId === ACTION.decisionOpenPo))).toBe(false);
    expect(story.actions.at(-1)).toBe('No award within the mandate: no purchase order to approve');

    const quotation = await quotationOf(story.threadTs);
    expect(quotation.status).toBe('completed');
    expect(quotation.negotiation?.status).toBe('completed');
    expect(quotation.negotiation?.purchaseOrders).toEqual([]);
    const card = thread.find((m) => m.user !== PEOPLE.buyer.id && /shared by/.test(JSON.stringify(m.blocks)));
    expect(JSON.stringify(card?.blocks)).toContain('No award within the mandate');
    expect(model.calls.filter((call) => !call.ok)).toEqual([]);
    expect(model.calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
  }, 240_000);
});
