// The read-out of a comparison sheet (one price column per supplier): one button per supplier, and the buyer's pick
// re-reads the file as that supplier's quotation; the review then replaces this message.
import type { KnownBlock } from '@slack/types';
import { ACTION, BLOCK, comparisonColumnCodec } from '../ids.js';
import { actions, button, context, header, section, type SlackMessage, MESSAGE_BLOCKS_MAX } from './blocks.js';
import { inline, oneLine } from './escape.js';

export interface ComparisonChoiceModel {
  quotationId: string;
  fileName: string;
  /** The suppliers as the sheet names them (untrusted), left to right. */
  suppliers: string[];
}

/** Slack's limit of elements in one actions block. */
const BUTTONS_PER_BLOCK = 25;
/** Header, sentence and hint take 3 of a message's 50 blocks: the rest are rows of buttons. */
const SUPPLIERS_MAX = (MESSAGE_BLOCKS_MAX - 3) * BUTTONS_PER_BLOCK;

export function buildComparisonChoice(model: ComparisonChoiceModel): SlackMessage {
  const shown = model.suppliers.slice(0, SUPPLIERS_MAX);
  const count = model.suppliers.length;
  const blocks: KnownBlock[] = [
    header(`Comparison: ${oneLine(model.fileName)}`),
    section(
      `*${inline(model.fileName, 100)}* is a comparison of ${count} suppliers, not one supplier's quotation. ` +
        'Pick the supplier whose prices you want to negotiate: the file is read again with that column.',
    ),
  ];
  for (let start = 0; start < shown.length; start += BUTTONS_PER_BLOCK) {
    blocks.push(
      actions(
        `${BLOCK.comparisonColumns}:${start / BUTTONS_PER_BLOCK}`,
        shown.slice(start, start + BUTTONS_PER_BLOCK).map((name, i) =>
          button({
            text: name,
            actionId: `${ACTION.comparisonPickColumn}:${start + i}`,
            value: comparisonColumnCodec.encode({ qt: model.quotationId, c: start + i }),
          }),
        ),
      ),
    );
  }
  if (shown.length < count) blocks.push(context([`${count - shown.length} more suppliers are not shown.`]));
  return {
    text: `${inline(model.fileName, 100)} is a comparison of ${count} suppliers: pick one to negotiate.`,
    blocks,
  };
}
