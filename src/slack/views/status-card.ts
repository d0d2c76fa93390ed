// The status card: the one message at the top of a quotation's thread, edited (chat.update) at every stage, so the
// channel sees where things stand without a stream of "still working" messages. Compact by design: ≤ 6 blocks.
import type { KnownBlock } from '@slack/types';
import {
  type SlackMessage,
  context,
  days,
  listPeople,
  money,
  plural,
  progressBar,
  section,
  slackDate,
  terms,
  who,
} from './blocks.js';
import { escapeTruncate, inline } from './escape.js';

/** awaiting: a connected supplier has this round's message and has not answered yet. */
export type SupplierRowStatus = 'active' | 'awaiting' | 'paused' | 'done' | 'impasse';

export interface StatusSupplierRow {
  name: string;
  status: SupplierRowStatus;
  /** Why it ended: an impasse reason in words, or why it is paused. */
  reason?: string | null;
  latestTotal: number | null;
  leadTimeDays: number | null;
  paymentTerms: string | null;
}

export type StatusStage =
  | { stage: 'reading' }
  | { stage: 'review'; needsReview: number; autoAccepted: number }
  | { stage: 'ready'; lineCount: number }
  | { stage: 'negotiating'; round: number; maxRounds: number; postCurveball?: boolean; suppliers: StatusSupplierRow[] }
  | {
      stage: 'waiting';
      /** Who must answer: the buyer. */
      buyerId: string;
      askedBy: string;
      round: number;
      maxRounds: number;
      suppliers: StatusSupplierRow[];
    }
  /** The negotiation's progress is in its streamed plan, in the thread below the card. */
  | { stage: 'live' }
  | { stage: 'deciding'; suppliers?: StatusSupplierRow[]; postCurveball?: boolean }
  | { stage: 'decision'; recommended: string[]; total: number; isSplit?: boolean }
  | {
      stage: 'approved';
      poNumber: string;
      approvedBy: string[];
      approvedAt: Date;
      /** Connected suppliers who accepted their part of it, in their own channel. */
      acceptedBy?: readonly { supplierName: string; by: string; at: Date }[];
    }
  | { stage: 'rejected'; poNumber: string; reason: string; rejectedBy: string; rejectedAt?: Date | null }
  | { stage: 'failed'; message: string }
  /** Concluded without an award: nothing meets the buyer's mandate (a premium's consent may still lead to one). */
  | { stage: 'no_award'; message: string }
  | { stage: 'expired'; reason?: string | null };

export interface StatusCardModel {
  fileName: string;
  sharedBy: string;
  currency: string;
  state: StatusStage;
}

const MAX_SUPPLIER_ROWS = 8;
const SUPPLIER_STATUS: Record<SupplierRowStatus, string> = {
  active: ':large_green_circle: active',
  awaiting: ':hourglass_flowing_sand: awaiting its reply',
  paused: ':double_vertical_bar: paused',
  done: ':white_check_mark: done',
  impasse: ':no_entry: impasse',
};

function supplierLines(rows: readonly StatusSupplierRow[], currency: string): string {
  const shown = rows.slice(0, MAX_SUPPLIER_ROWS).map((row) => {
    const reason = row.reason ? ` (${inline(row.reason, 120)})` : '';
    const figures = [money(row.latestTotal, currency), days(row.leadTimeDays), terms(row.paymentTerms)].join(' · ');
    return `• *${inline(row.name, 60)}* — ${SUPPLIER_STATUS[row.status]}${reason} · ${figures}`;
  });
  const more = rows.length - shown.length;
  if (more > 0) shown.push(`…and ${plural(more, 'more supplier')}`);
  return shown.join('\n');
}

function roundLine(round: number, maxRounds: number, postCurveball = false): string {
  const r = Math.max(0, Math.min(round, maxRounds));
  const phase = postCurveball ? ' · after the curveball' : '';
  return `Round ${r} of ${maxRounds}  ${progressBar(r, maxRounds)}${phase}`;
}

/** The headline (with emoji) and the one-line summary used as the fallback text. */
function describe(model: StatusCardModel): { icon: string; title: string; body: KnownBlock[] } {
  const s = model.state;
  const cur = model.currency;
  switch (s.stage) {
    case 'reading':
      return { icon: ':eyes:', title: 'Reading the quotation…', body: [] };
    case 'review':
      return {
        icon: ':mag:',
        title: `${plural(s.needsReview, 'line needs', 'lines need')} a look`,
        body: [context([`${plural(s.autoAccepted, 'line')} matched the catalog on their own. Review below.`])],
      };
    case 'ready':
      return {
        icon: ':white_check_mark:',
        title: 'Ready to negotiate',
        body: [context([`All ${plural(s.lineCount, 'line')} matched. Start the negotiation from the review below.`])],
      };
    case 'negotiating':
      return {
        icon: ':speech_balloon:',
        title: 'Negotiating',
        body: [
          context([roundLine(s.round, s.maxRounds, s.postCurveball)]),
          ...(s.suppliers.length > 0 ? [section(supplierLines(s.suppliers, cur))] : []),
        ],
      };
    case 'waiting':
      return {
        icon: ':raising_hand:',
        title: 'Waiting for an answer',
        body: [
          section(`${who(s.buyerId)}, ${inline(s.askedBy, 80)} asked a question in this thread.`),
          context([roundLine(s.round, s.maxRounds)]),
          ...(s.suppliers.length > 0 ? [section(supplierLines(s.suppliers, cur))] : []),
        ],
      };
    case 'live':
      return {
        icon: ':speech_balloon:',
        title: 'Negotiating',
        body: [context(['Follow each step in the plan below: it updates as the rounds go.'])],
      };
    case 'deciding':
      return { icon: ':abacus:', title: 'Scoring the offers and drafting the purchase order…', body: [] };
    case 'decision': {
      const names = s.recommended.map((n) => `*${inline(n, 60)}*`);
      const list = names.length <= 1 ? (names[0] ?? '—') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
      return {
        icon: ':trophy:',
        title: 'Recommendation ready',
        body: [section(`${s.isSplit ? 'Split between' : 'Buy from'} ${list} · ${money(s.total, cur)}`)],
      };
    }
    case 'approved':
      return {
        icon: ':white_check_mark:',
        title: `${inline(s.poNumber, 40)} approved`,
        body: [
          context([`Approved by ${listPeople(s.approvedBy)} · ${slackDate(s.approvedAt)}`]),
          ...(s.acceptedBy ?? []).map((accepted) =>
            context([
              `:handshake: Accepted by ${inline(accepted.supplierName, 80)} (${who(accepted.by)}) · ` +
                slackDate(accepted.at),
            ]),
          ),
        ],
      };
    case 'rejected':
      return {
        icon: ':x:',
        title: `${inline(s.poNumber, 40)} rejected`,
        body: [
          section(`> ${inline(s.reason, 600)}`),
          context([`Rejected by ${who(s.rejectedBy)}${s.rejectedAt ? ` · ${slackDate(s.rejectedAt)}` : ''}`]),
        ],
      };
    case 'failed':
      return {
        icon: ':warning:',
        title: 'Could not finish',
        body: [section(escapeTruncate(s.message.trim() || 'Something went wrong.', 1000))],
      };
    case 'no_award': {
      const said = s.message.trim().replace(/\.$/, '');
      return {
        icon: ':no_entry_sign:',
        title: 'No award within the mandate',
        body: [section(escapeTruncate(said ? `${said.charAt(0).toUpperCase()}${said.slice(1)}.` : '—', 1000))],
      };
    }
    case 'expired':
      return {
        icon: ':hourglass:',
        title: 'Expired',
        body: [context([s.reason ? inline(s.reason, 300) : 'Nothing happened here for too long.'])],
      };
  }
}

export function buildStatusCard(model: StatusCardModel): SlackMessage {
  const { icon, title, body } = describe(model);
  const file = inline(model.fileName, 100);
  const blocks: KnownBlock[] = [
    section(`${icon} *${title}*\n:page_facing_up: ${file} · shared by ${who(model.sharedBy)}`),
    ...body,
  ];
  return { text: `${title} — ${file}`, blocks: blocks.slice(0, 6) };
}
