// The negotiation's plan as one streamed message under the status card (chat.startStream / appendStream / stopStream),
// through the real outbox poster and WebClient against the stand-in: its tasks move pending → in progress → complete,
// the card at the top points to it, and every call passes the call-log checker.
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { checkCallLog, formatProblems } from '../../dev/slack-stand-in/call-log.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION } from '../../src/slack/ids.js';

const callLogPath = join(mkdtempSync(join(tmpdir(), 'parley-plan-')), 'calls.jsonl');
const running = useSandboxedParley({
  callLogPath,
  afterStart: async ({ parley }) => {
    const bytes = await readFile(new URL('../../data/samples/01-clean-baseline.xlsx', import.meta.url));
    await playStory(parley, { file: { name: 'plan.xlsx', bytes } });
  },
});

async function threadOfStory() {
  const quotation = await running.db.prisma.quotation.findFirstOrThrow({ where: { fileName: 'plan.xlsx' } });
  const threadTs = quotation.slackThreadTs ?? quotation.slackMessageTs ?? '';
  return { quotation, thread: running.parley.sandbox.model.thread(CHANNEL.id, threadTs) };
}

describe('the streamed plan', () => {
  it('is one message in the thread, streamed to the buyer, whose tasks end complete once the PO is approved', async () => {
    const { quotation, thread } = await threadOfStory();
    const plans = thread.filter((m) => m.stream !== undefined);
    expect(plans).toHaveLength(1);
    const stream = plans[0]?.stream;
    expect(stream).toMatchObject({ state: 'stopped', recipientUserId: PEOPLE.buyer.id, planTitle: 'Negotiation plan' });
    const ids = stream?.tasks.map((t) => t.id) ?? [];
    expect(ids.slice(0, 3)).toEqual(['parse', 'match', 'review']);
    expect(ids.filter((id) => id.startsWith('supplier-')).length).toBeGreaterThanOrEqual(2);
    expect(ids.slice(-3)).toEqual(['curveball', 'decision', 'po']);
    expect(stream?.tasks.every((t) => t.status === 'complete')).toBe(true);
    // The decision and PO moved through the states in order.
    const po = stream?.updates.filter((u) => u.id === 'po').map((u) => u.status) ?? [];
    expect(po[0]).toBe('pending');
    expect(po).toContain('in_progress');
    expect(po.at(-1)).toBe('complete');
    // The status card's edits stopped while the plan ran: it said "follow the plan", then the outcome.
    const cardRow = await running.db.prisma.slackOutbox.findFirstOrThrow({
      where: { dedupeKey: `q:${quotation.id}:status` },
    });
    const card = thread.find((m) => m.ts === cardRow.resultTs);
    expect(JSON.stringify(card?.blocks)).toMatch(/approved/);
    expect(card?.history.some((v) => /Follow each step in the plan below/.test(JSON.stringify(v.blocks)))).toBe(true);
    expect(card?.history.some((v) => /Round \d of \d/.test(JSON.stringify(v.blocks)))).toBe(false);
  });

  it('passes the call-log checker, recipient ids included', async () => {
    expect(formatProblems(checkCallLog(callLogPath))).toBe('');
    const calls = running.parley.sandbox.model.calls.filter((c) => c.method === 'chat.startStream');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args).toMatchObject({ recipient_user_id: PEOPLE.buyer.id, recipient_team_id: TEAM_ID });
  });
});

describe('feedback on the recommendation', () => {
  it('stores one 👍/👎 per person with the negotiation, audited; the same click twice changes nothing', async () => {
    const { driver } = running.parley.sandbox;
    const { quotation, thread } = await threadOfStory();
    const recommendation = thread.find((m) => JSON.stringify(m.blocks ?? []).includes('"feedback_buttons"'));
    expect(recommendation).toBeDefined();
    const target = { channel: CHANNEL.id, ts: recommendation?.ts ?? '' };
    await driver.clickFeedback(PEOPLE.colleague.id, target, ACTION.decisionFeedback, 'positive');
    await driver.clickFeedback(PEOPLE.colleague.id, target, ACTION.decisionFeedback, 'positive');
    await driver.clickFeedback(PEOPLE.buyer.id, target, ACTION.decisionFeedback, 'negative');
    await driver.clickFeedback(PEOPLE.buyer.id, target, ACTION.decisionFeedback, 'positive');
    await running.parley.settle();
    const negotiation = await running.db.prisma.negotiation.findFirstOrThrow({ where: { quotationId: quotation.id } });
    const rows = await running.db.prisma.recommendationFeedback.findMany({
      where: { negotiationId: negotiation.id },
      orderBy: { slackUserId: 'asc' },
    });
    expect(rows.map((r) => [r.slackUserId, r.rating])).toEqual(
      [
        [PEOPLE.colleague.id, 'positive'],
        [PEOPLE.buyer.id, 'positive'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const audits = await running.db.prisma.auditLog.findMany({
      where: { action: 'recommendation.feedback', entityId: negotiation.id },
    });
    // The colleague's second click is no change; the buyer's change of mind is.
    expect(audits).toHaveLength(3);
  });
});
