import { describe, expect, it } from 'vitest';
import { isFinalStage, planChunks, planTasks } from './plan.js';
import type { StatusSupplierRow } from './status-card.js';

const row = (name: string, status: StatusSupplierRow['status']): StatusSupplierRow => ({
  name,
  status,
  reason: null,
  latestTotal: 41_200,
  leadTimeDays: 30,
  paymentTerms: 'Net 30',
});

describe('planTasks', () => {
  it('lists parse → match → review → a task per supplier → curveball → decision → PO while negotiating', () => {
    const tasks = planTasks(
      {
        stage: 'negotiating',
        round: 2,
        maxRounds: 4,
        suppliers: [row('RapidGear Co', 'active'), row('Alpine', 'done')],
      },
      'USD',
    );
    expect(tasks.map((t) => `${t.id}:${t.status}`)).toEqual([
      'parse:complete',
      'match:complete',
      'review:complete',
      'supplier-1:in_progress',
      'supplier-2:complete',
      'curveball:pending',
      'decision:pending',
      'po:pending',
    ]);
    expect(tasks[3]).toMatchObject({ title: 'Negotiate with RapidGear Co' });
    expect(tasks[3]?.details).toMatch(/^round 2 of 4 · \$41,200/);
  });

  it('moves the decision and the PO along, and ends on the outcome', () => {
    const decided = planTasks({ stage: 'decision', recommended: ['RapidGear Co'], total: 1 }, 'USD');
    expect(decided.map((t) => `${t.id}:${t.status}`)).toEqual(['decision:complete', 'po:in_progress']);
    expect(planTasks({ stage: 'rejected', poNumber: 'PO-1', reason: 'x', rejectedBy: 'U1' }, 'USD')[0]?.status).toBe(
      'error',
    );
    expect(isFinalStage({ stage: 'approved', poNumber: 'PO-1', approvedBy: [], approvedAt: new Date() })).toBe(true);
    expect(isFinalStage({ stage: 'decision', recommended: [], total: 1 })).toBe(false);
  });

  it('treats supplier names from the file as data', () => {
    const [task] = planTasks(
      {
        stage: 'waiting',
        buyerId: 'U1',
        askedBy: 'Alex',
        round: 1,
        maxRounds: 4,
        suppliers: [row('<!channel> Co', 'paused')],
      },
      'USD',
    ).filter((t) => t.id === 'supplier-1');
    expect(task?.title).toBe('Negotiate with &lt;!channel&gt; Co');
    expect(task?.details).toMatch(/^paused/);
  });
});

describe('planChunks', () => {
  it('sends the plan title first, then one task_update per task', () => {
    const chunks = planChunks([{ id: 'parse', title: 'Read', status: 'complete' }], { withTitle: true });
    expect(chunks).toEqual([
      { type: 'plan_update', title: 'Negotiation plan' },
      { type: 'task_update', id: 'parse', title: 'Read', status: 'complete' },
    ]);
  });
});
