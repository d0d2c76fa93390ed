// Short notices: "not allowed" (ephemeral, says who may and why), a file Parley cannot read (in the thread: the
// parser's sentence plus what to share instead), a workbook Parley could not make (in the thread: what still stands
// and what to do), and the generic error with a reference for the logs.
import type { KnownBlock } from '@slack/types';
import type { QuotationErrorCode } from '../../quotation/errors.js';
import { type SlackMessage, context, listPeople, section, who } from './blocks.js';
import { clip, escapeTruncate, inline, preformatted } from './escape.js';

export type NotAllowedRule =
  /** Confirming matches, answering questions, starting the negotiation. */
  | { kind: 'uploader_or_approvers'; uploaderId: string; approverIds: string[] }
  /** Approving or rejecting a PO. */
  | { kind: 'approvers'; approverIds: string[] }
  /** Changing settings. */
  | { kind: 'admins'; approverIds: string[] };

export interface NotAllowedModel {
  /** What the person tried, as a verb phrase: "confirm matches", "approve this purchase order". */
  action: string;
  rule: NotAllowedRule;
}

function approversText(ids: readonly string[]): string {
  return ids.length === 0 ? 'the approvers (none are set yet)' : `the approvers (${listPeople(ids.slice(0, 10))})`;
}

export function buildNotAllowed(model: NotAllowedModel): SlackMessage {
  const action = inline(model.action, 120);
  const r = model.rule;
  const whoMay =
    r.kind === 'uploader_or_approvers'
      ? `the person who shared the file (${who(r.uploaderId)}) and ${approversText(r.approverIds)}`
      : approversText(r.approverIds);
  const why =
    r.kind === 'uploader_or_approvers'
      ? 'A quotation is worked on by whoever shared it, with the approvers as backup.'
      : r.kind === 'approvers'
        ? 'Nothing is bought without a configured approver; larger orders need two.'
        : 'Settings decide who approves purchase orders, so only approvers can change them.';
  const text = `:lock: Only ${whoMay} can ${action}. Nothing was changed.`;
  return { text, blocks: [section(text), context([why])] };
}

const WHAT_TO_SHARE: Readonly<Record<QuotationErrorCode, string>> = {
  not_xlsx: 'Parley reads .xlsx files: export the sheet as .xlsx and share it again.',
  encrypted: 'Share a copy of the workbook without a password.',
  corrupt: 'Open the file in Excel, save it again as .xlsx and share the new copy.',
  empty: 'Share the workbook that holds the quoted lines.',
  too_large: 'Share a smaller .xlsx: only the quotation sheet, without images.',
  too_many_rows: 'Share a smaller .xlsx: only the quotation sheet.',
  too_many_cells: 'Share a smaller .xlsx: only the quotation sheet.',
  zip_bomb: 'Share the quotation saved again as a normal .xlsx from Excel.',
  no_item_table: 'Parley looks for a table with item (SKU or description), quantity and unit price columns.',
  download_timeout: 'Share the same file again in a few minutes; nothing needs to change in it.',
  nothing_to_negotiate: 'Share the supplier’s quotation with its quantities and prices filled in.',
};

export interface FileErrorModel {
  fileName: string;
  code: QuotationErrorCode;
  /** The parser's sentence for the buyer (QuotationError.userMessage). */
  message: string;
  /** For `no_item_table`: the first rows as read, so the buyer sees what Parley saw. */
  preview?: string[][];
}

export function buildFileError(model: FileErrorModel): SlackMessage {
  const file = inline(model.fileName, 100);
  const blocks: KnownBlock[] = [
    section(`:warning: *Parley couldn't read ${file}.*\n${escapeTruncate(model.message.trim(), 1500)}`),
    context([`:bulb: ${WHAT_TO_SHARE[model.code]}`]),
  ];
  if (model.preview && model.preview.length > 0) {
    const rows = model.preview.slice(0, 15).map((cells) =>
      cells
        .slice(0, 8)
        .map((c) => clip(c, 18))
        .join(' | '),
    );
    const table = preformatted(rows, 2800);
    if (table.text) blocks.push(section(`*What Parley saw (first rows):*\n${table.text}`));
  }
  return { text: `Parley couldn't read ${file}: ${inline(model.message, 300)}`, blocks };
}

export type WorkbookFailedModel =
  /** The approved PO's workbook (send-po-workbook). */
  | { kind: 'purchase_order'; poNumber: string }
  /** "Download all lines" of a quotation's review (send-review-workbook). */
  | { kind: 'review'; fileName: string };

/** A workbook whose job failed for good: what did not happen, what still stands, and what the person can do. */
export function buildWorkbookFailed(model: WorkbookFailedModel): SlackMessage {
  if (model.kind === 'purchase_order') {
    const po = inline(model.poNumber, 60);
    const text =
      `The workbook of ${po} could not be made: making it failed again and again, and the errors have been logged. ` +
      `${po} itself is approved and stands.`;
    return {
      text,
      blocks: [
        section(
          `:warning: *The workbook of ${po} could not be made.* Making it failed again and again, and the errors ` +
            `have been logged.\n*${po} itself is approved and stands:* the approval is saved and nothing about it changed.`,
        ),
        context([
          `:bulb: Go on with ${po} as approved; its award is in the recommendation above. For the .xlsx, ask whoever ` +
            `runs Parley to look for ${po} in its logs.`,
        ]),
      ],
    };
  }
  const file = inline(model.fileName, 100);
  const text =
    `The review workbook of ${file} could not be made: making it failed again and again, and the errors have been ` +
    'logged. Nothing in the review was changed.';
  return {
    text,
    blocks: [
      section(
        `:warning: *The review workbook of ${file} could not be made.* Making it failed again and again, and the ` +
          'errors have been logged. Nothing in the review was changed.',
      ),
      context([':bulb: Click *Download all lines* again in a few minutes, or go on reviewing with the buttons above.']),
    ],
  };
}

export function buildGenericError(model: { ref: string }): SlackMessage {
  const ref = inline(model.ref, 40);
  const text = `:warning: Something went wrong; it has been logged (ref \`${ref}\`). Please try again in a moment.`;
  return { text, blocks: [section(text)] };
}
