// The whole story through the local Slack stand-in and the real Bolt receiver: a buyer shares a quotation, settles the
// review, starts the negotiation, answers the questions, and an approver approves the PO — then the thread, the
// database and the Web API calls are checked.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { buttonsIn, playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION } from '../../src/slack/ids.js';
import { scopeToWorkspace } from '../../src/db/scoped.js';
import { loadPurchaseOrder } from '../../src/db/stores/purchase-orders.js';
import { purchaseOrderDigest } from '../../src/decision/purchase-order-rules.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);

const running = useSandboxedParley();

describe('the Slack flow, end to end', () => {
  it('takes a shared quotation to an approved PO in one thread', async () => {
    const bytes = await readFile(SAMPLE);
    const story = await playStory(running.parley, { file: { name: 'quote.xlsx', bytes } });
    const { model } = running.parley.sandbox;

    const quotation = await running.db.prisma.quotation.findFirstOrThrow({ include: { negotiation: true } });
    expect(quotation.slackThreadTs).toBe(story.threadTs);
    expect(quotation.uploadedBySlackUserId).toBe(PEOPLE.buyer.id);
    expect(quotation.negotiation?.status).toBe('completed');
    const po = await running.db.prisma.purchaseOrder.findFirstOrThrow({ include: { approvals: true } });
    expect(po.status).toBe('approved');
    expect(po.approvals.map((a) => a.approverSlackUserId)).toContain(PEOPLE.approver.id);
    // Each approval carries the digest of what its approver's modal showed: this PO at the version it had then (each
    // approval bumps the version).
    const stored = await loadPurchaseOrder(scopeToWorkspace(running.db.prisma, po.workspaceId), po.id);
    if (!stored) throw new Error('PO gone');
    const inOrder = [...po.approvals].sort((a, b) => a.approvedAt.getTime() - b.approvedAt.getTime());
    expect(inOrder.map((a) => a.shownDigest)).toEqual(
      inOrder.map((_, version) => purchaseOrderDigest({ ...stored, version })),
    );

    const thread = model.thread(CHANNEL.id, story.threadTs);
    const transcript = running.parley.sandbox.renderThread(CHANNEL.id, story.threadTs);
    // The status card is one message, edited, not a stream.
    const cards = thread.filter((m) => m.user !== PEOPLE.buyer.id && /shared by/.test(JSON.stringify(m.blocks)));
    expect(cards).toHaveLength(1);
    expect(cards[0]?.history.length).toBeGreaterThan(3);
    expect(JSON.stringify(cards[0]?.blocks)).toMatch(/approved/i);
    // Agent turns in their round's message under who said them, each saying what it is (issue 17: one message per
    // round, not per turn); the decision with its PO button; the chart and the PO workbook.
    expect(transcript).toMatch(/^ {2}\*Alex \(AI agent\) → Alpine Premium:\* /m);
    expect(transcript).toMatch(/^ {2}\*Alpine Premium \(simulated\):\* /m);
    expect(transcript).toMatch(/^ {2}\*RapidGear Co \(simulated\):\* /m);
    const rounds = thread.flatMap((m) => /^Round (\d+) of \d+/.exec(m.text)?.[1] ?? []);
    expect(rounds.length).toBeGreaterThan(1);
    expect(new Set(rounds).size).toBe(rounds.length);
    expect(thread.some((m) => buttonsIn(m).some((b) => b.actionId === ACTION.decisionOpenPo))).toBe(true);
    const files = thread.flatMap((m) => m.fileIds.map((id) => model.file(id)?.name));
    expect(files).toEqual(expect.arrayContaining(['offer-totals-by-round.png', `${po.number}.xlsx`]));
    expect(model.reactions(CHANNEL.id, story.threadTs).map((r) => r.name)).toContain('eyes');
    expect(transcript).toMatch(/Curveball|60%/);

    // No Web API call failed, and every payload is within Block Kit's limits.
    const failed = model.calls.filter((call) => !call.ok);
    expect(failed).toEqual([]);
    expect(model.calls.flatMap((call) => callProblems(call.method, call.args))).toEqual([]);
    // No message was posted twice.
    const keys = thread.flatMap((m) => (m.metadata ? [JSON.stringify(m.metadata)] : []));
    expect(new Set(keys).size).toBe(keys.length);
  }, 180_000);
});
