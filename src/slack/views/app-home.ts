// The App Home tab: what waits for this person — their active negotiations, questions for them, POs for their
// approval — each with a button to the thread. Lists are capped so the tab stays within Slack's 100 blocks.
import type { HomeView, KnownBlock } from '@slack/types';
import { ACTION } from '../ids.js';
import { button, context, divider, header, money, plural, safeUrl, section, who } from './blocks.js';
import { inline } from './escape.js';

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

export interface AppHomeModel {
  userId: string;
  negotiations: HomeNegotiation[];
  questions: HomeQuestion[];
  purchaseOrders: HomePurchaseOrder[];
}

/** Items shown per list: 3 lists × (header + 25 items + "and N more" + divider) + the top = 90 blocks at most. */
export const HOME_LIST_MAX = 25;

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

export function buildAppHome(model: AppHomeModel): HomeView {
  const blocks: KnownBlock[] = [
    section(
      `:wave: Hi ${who(model.userId)}. *Parley* reads supplier quotations shared in channels, negotiates, and ` +
        'drafts purchase orders for approval.',
    ),
    context(['Share an .xlsx quotation in a channel Parley is in, or type `/parley help`.']),
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
  ];
  return { type: 'home', blocks };
}
