// The App Home tab: what waits for this person — their active negotiations, questions for them, POs for their
// approval — each with a button to the thread, then what is done: past negotiations and purchase orders, one linked
// line each. Lists are capped so the tab stays within Slack's 100 blocks.
import type { HomeView, KnownBlock } from '@slack/types';
import { ACTION, BLOCK } from '../ids.js';
import {
  actions,
  button,
  context,
  divider,
  header,
  money,
  plural,
  safeUrl,
  section,
  SECTION_TEXT_MAX,
  slackDate,
  who,
} from './blocks.js';
import { clip, inline, link } from './escape.js';

export interface HomeNegotiation {
  title: string;
  /** "Negotiating · round 2 of 4", "Waiting for review", … */
  stage: string;
  permalink: string | null;
}

export interface HomeQuestion {
  askedBy: string;
  question: string;
  permalink: string | null;
}

export interface HomePurchaseOrder {
  number: string;
  supplierNames: string[];
  total: number;
  currency: string;
  /** "1 of 2 approvals" */
  approvals: string;
  permalink: string | null;
}

/** A negotiation that has ended, and what it awarded. */
export interface HomePastNegotiation {
  title: string;
  supplierName: string | null;
  /** "Completed", "Expired", … */
  status: string;
  /** The PO it led to (the latest not superseded), if any. */
  award: { poNumber: string; total: number; currency: string } | null;
  /** When it ended. */
  at: Date;
  permalink: string | null;
}

export interface HomePastPurchaseOrder {
  number: string;
  /** "Approved", "Rejected", "Waiting for approval". */
  status: string;
  total: number;
  currency: string;
  supplierNames: string[];
  /** When it was approved or rejected, or drafted. */
  at: Date;
  permalink: string | null;
}

/** Where this person stands on approving: an approver, nobody approves yet (a fresh install), or neither. */
export type HomeRole = 'approver' | 'no_approver_yet' | 'member';

const ROLE_LINE: Record<HomeRole, string | null> = {
  approver: ':white_check_mark: You approve purchase orders here; `/parley settings` changes who approves.',
  no_approver_yet:
    ':warning: Nobody approves purchase orders yet: the first workspace admin to open this Home becomes the ' +
    'approver (or an admin adds approvers with `/parley settings`).',
  member: null,
};

function roleLine(role: HomeRole = 'member'): string[] {
  const line = ROLE_LINE[role];
  return line === null ? [] : [line];
}

export interface AppHomeModel {
  userId: string;
  /** Defaults to `member` (no line). */
  role?: HomeRole;
  negotiations: HomeNegotiation[];
  questions: HomeQuestion[];
  purchaseOrders: HomePurchaseOrder[];
  /** Newest first; at most HOME_HISTORY_MAX are shown. */
  pastNegotiations: HomePastNegotiation[];
  pastPurchaseOrders: HomePastPurchaseOrder[];
}

/**
 * Items shown per list, and in each history. At most: the top (3, with an action row) + 3 lists × (header + 20 items
 * + "and N more" + divider) + 2 histories × (header + 3 sections of whole lines + divider) = 82 of Slack's 100 blocks.
 */
export const HOME_LIST_MAX = 20;
export const HOME_HISTORY_MAX = 20;

function item(text: string, permalink: string | null, index: number): KnownBlock {
  const url = safeUrl(permalink);
  const block = section(text);
  if (url) {
    block.accessory = button({ text: 'Open thread', actionId: ACTION.openThread, url, value: String(index) });
  }
  return block;
}

function list<T>(
  title: string,
  empty: string,
  items: readonly T[],
  render: (x: T, i: number) => KnownBlock,
): KnownBlock[] {
  const blocks: KnownBlock[] = [header(`${title} (${items.length})`)];
  if (items.length === 0) blocks.push(context([empty]));
  items.slice(0, HOME_LIST_MAX).forEach((x, i) => blocks.push(render(x, i)));
  if (items.length > HOME_LIST_MAX) {
    blocks.push(context([`…and ${plural(items.length - HOME_LIST_MAX, 'more')} — see the channels' threads.`]));
  }
  blocks.push(divider());
  return blocks;
}

/** A line of the history: its first part (raw text, escaped here) links to the thread when there is one. */
function historyLine(linked: string, rest: readonly string[], permalink: string | null): string {
  const url = safeUrl(permalink);
  const head = url ? link(url, clip(linked, 80)) : `*${inline(linked, 80)}*`;
  return [`• ${head}`, ...rest].join(' · ');
}

/** Whole lines in as few sections as Slack's 3000 characters allow (each line is far shorter than that). */
function linesInSections(lines: readonly string[]): KnownBlock[] {
  const texts: string[] = [];
  for (const line of lines) {
    const last = texts.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= SECTION_TEXT_MAX) {
      texts[texts.length - 1] = `${last}\n${line}`;
    } else {
      texts.push(line);
    }
  }
  return texts.map((text) => section(text));
}

function history(title: string, empty: string, lines: readonly string[]): KnownBlock[] {
  return [header(title), ...(lines.length === 0 ? [context([empty])] : linesInSections(lines)), divider()];
}

function pastNegotiationLine(n: HomePastNegotiation): string {
  const award = n.award
    ? `${inline(n.award.poNumber, 40)}: ${money(n.award.total, n.award.currency)}`
    : 'no purchase order';
  const supplier = n.supplierName ? [inline(n.supplierName, 60)] : [];
  return historyLine(n.title, [...supplier, `*${inline(n.status, 40)}*`, award, slackDate(n.at)], n.permalink);
}

function pastPurchaseOrderLine(p: HomePastPurchaseOrder): string {
  const suppliers =
    p.supplierNames
      .slice(0, 3)
      .map((name) => inline(name, 40))
      .join(', ') || '—';
  return historyLine(
    p.number,
    [`*${inline(p.status, 40)}*`, money(p.total, p.currency), suppliers, slackDate(p.at)],
    p.permalink,
  );
}

export function buildAppHome(model: AppHomeModel): HomeView {
  const blocks: KnownBlock[] = [
    section(
      `:wave: Hi ${who(model.userId)}. *Parley* reads supplier quotations shared in channels, negotiates, and ` +
        'drafts purchase orders for approval.',
    ),
    context(['Share an .xlsx quotation in a channel Parley is in, or type `/parley help`.', ...roleLine(model.role)]),
    // The brand's own catalog, which quotations are matched against, and its suppliers in Slack Connect (as
    // `/parley catalog` and `/parley suppliers` do).
    actions(BLOCK.catalogHome, [
      button({ text: 'Import catalog', actionId: ACTION.catalogOpen }),
      button({ text: 'Suppliers', actionId: ACTION.suppliersOpen }),
    ]),
    ...list(
      'Your active negotiations',
      'Nothing in progress. Share a quotation to start.',
      model.negotiations,
      (n, i) => item(`*${inline(n.title, 120)}*\n${inline(n.stage, 200)}`, n.permalink, i),
    ),
    ...list('Questions waiting for you', 'No questions for you.', model.questions, (q, i) =>
      item(`*${inline(q.askedBy, 80)}* asks: ${inline(q.question, 400)}`, q.permalink, i),
    ),
    ...list('POs waiting for your approval', 'No purchase orders waiting for you.', model.purchaseOrders, (p, i) =>
      item(
        `*${inline(p.number, 40)}* · ${money(p.total, p.currency)} · ` +
          `${
            p.supplierNames
              .slice(0, 3)
              .map((n) => inline(n, 60))
              .join(', ') || '—'
          }\n${inline(p.approvals, 100)}`,
        p.permalink,
        i,
      ),
    ),
    ...history(
      'Past negotiations',
      'No finished negotiations yet.',
      model.pastNegotiations.slice(0, HOME_HISTORY_MAX).map(pastNegotiationLine),
    ),
    ...history(
      'Past purchase orders',
      'No purchase orders yet.',
      model.pastPurchaseOrders.slice(0, HOME_HISTORY_MAX).map(pastPurchaseOrderLine),
    ),
  ];
  return { type: 'home', blocks };
}
