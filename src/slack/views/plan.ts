// The negotiation's plan as one streamed message (chat.startStream / appendStream / stopStream): a plan_update title
// and one task_update per step — parse → match → review → a task per supplier's rounds → curveball → decision → PO —
// each moving pending → in_progress → complete. Slack keeps each task by id, so every update can send the whole list:
// unchanged tasks render the same. Built from the same StatusStage as the status card, which stays the fallback.
import type { AnyChunk, TaskUpdateChunk } from '@slack/types';
import { days, money, terms } from './blocks.js';
import { fitMrkdwn, inline } from './escape.js';
import type { StatusStage, StatusSupplierRow } from './status-card.js';

export type PlanTaskStatus = TaskUpdateChunk['status'];

export interface PlanTask {
  id: string;
  title: string;
  status: PlanTaskStatus;
  details?: string;
}

export const PLAN_TITLE = 'Negotiation plan';
/** Task text is short by design; supplier names and reasons come from files and agents, so they are cut and escaped. */
const NAME_MAX = 60;
const DETAILS_MAX = 200;

const done = (id: string, title: string, details?: string): PlanTask => ({ id, title, status: 'complete', details });

const READ_TASKS: PlanTask[] = [
  done('parse', 'Read the quotation'),
  done('match', 'Match lines to the catalog'),
  done('review', 'Buyer reviews the matches'),
];

function supplierTask(row: StatusSupplierRow, index: number, currency: string, round: string): PlanTask {
  const figures = [money(row.latestTotal, currency), days(row.leadTimeDays), terms(row.paymentTerms)].join(' · ');
  const reason = row.reason ? ` · ${inline(row.reason, 120)}` : '';
  const status: PlanTaskStatus = row.status === 'done' || row.status === 'impasse' ? 'complete' : 'in_progress';
  const state = row.status === 'impasse' ? 'impasse' : row.status === 'paused' ? 'paused' : round;
  return {
    id: `supplier-${index + 1}`,
    title: `Negotiate with ${inline(row.name, NAME_MAX)}`,
    status,
    details: fitMrkdwn(`${state} · ${figures}${reason}`, DETAILS_MAX),
  };
}

/** The tasks as they stand at `stage`; tasks a stage says nothing about are left out (Slack keeps them as they were). */
export function planTasks(stage: StatusStage, currency: string): PlanTask[] {
  const pending = (id: string, title: string): PlanTask => ({ id, title, status: 'pending' });
  switch (stage.stage) {
    case 'negotiating':
    case 'waiting': {
      const round = `round ${stage.round} of ${stage.maxRounds}`;
      const postCurveball = stage.stage === 'negotiating' && stage.postCurveball === true;
      return [
        ...READ_TASKS,
        ...stage.suppliers.map((row, i) => supplierTask(row, i, currency, round)),
        postCurveball
          ? done('curveball', 'Handle the capacity curveball', 'strategy chosen')
          : pending('curveball', 'Handle the capacity curveball'),
        stage.stage === 'waiting'
          ? { ...pending('decision', 'Recommend who to buy from'), details: 'waiting for the buyer’s answer' }
          : pending('decision', 'Recommend who to buy from'),
        pending('po', 'Purchase order approved'),
      ];
    }
    case 'deciding': {
      // The rounds are over: each supplier's task completes with its last offer, the curveball's too if it never came.
      const suppliers = stage.suppliers ?? [];
      return [
        ...suppliers.map((row, i) =>
          supplierTask({ ...row, status: row.status === 'impasse' ? 'impasse' : 'done' }, i, currency, 'done'),
        ),
        ...(stage.suppliers === undefined
          ? []
          : [
              done(
                'curveball',
                'Handle the capacity curveball',
                stage.postCurveball ? 'strategy chosen' : 'not needed',
              ),
            ]),
        { id: 'decision', title: 'Recommend who to buy from', status: 'in_progress', details: 'scoring the offers' },
      ];
    }
    case 'decision': {
      const who = stage.recommended.map((name) => inline(name, NAME_MAX)).join(', ');
      return [
        done(
          'decision',
          'Recommend who to buy from',
          fitMrkdwn(`${stage.isSplit ? 'split: ' : ''}${who}`, DETAILS_MAX),
        ),
        { id: 'po', title: 'Purchase order approved', status: 'in_progress', details: 'waiting for an approver' },
      ];
    }
    case 'approved':
      return [done('po', 'Purchase order approved', `${inline(stage.poNumber, 40)} approved`)];
    case 'rejected':
      return [
        {
          id: 'po',
          title: 'Purchase order approved',
          status: 'error',
          details: `${inline(stage.poNumber, 40)} rejected`,
        },
      ];
    case 'no_award':
      return [
        done('decision', 'Recommend who to buy from', 'no award within the mandate'),
        { id: 'po', title: 'Purchase order approved', status: 'error', details: 'no purchase order' },
      ];
    case 'failed':
      return [{ id: 'decision', title: 'Recommend who to buy from', status: 'error', details: 'could not finish' }];
    case 'expired':
      return [{ id: 'po', title: 'Purchase order approved', status: 'error', details: 'expired' }];
    case 'reading':
    case 'review':
    case 'ready':
    case 'live':
      return [];
  }
}

/** Stages after which nothing more happens in the plan: its stream is stopped. */
export function isFinalStage(stage: StatusStage): boolean {
  return ['approved', 'rejected', 'no_award', 'failed', 'expired'].includes(stage.stage);
}

/** The stream's chunks: the plan's title (on the first call) and the tasks. */
export function planChunks(tasks: readonly PlanTask[], options: { withTitle?: boolean } = {}): AnyChunk[] {
  const chunks: AnyChunk[] = options.withTitle ? [{ type: 'plan_update', title: PLAN_TITLE }] : [];
  for (const task of tasks) {
    const chunk: TaskUpdateChunk = { type: 'task_update', id: task.id, title: task.title, status: task.status };
    if (task.details) chunk.details = task.details;
    chunks.push(chunk);
  }
  return chunks;
}
