// The reject modal, pushed on top of the PO modal by Reject…: a required reason (it goes in the thread and the audit
// log). The PO and the version the approver saw travel in private_metadata.
import type { ModalView } from '@slack/types';
import { ACTION, BLOCK, CALLBACK, poRefCodec } from '../ids.js';
import { section } from './blocks.js';
import { inline, label, plain } from './escape.js';
import { ModalState, type ParseResult } from './modal-state.js';

/** Same as decision/purchase-order-rules.ts REJECT_REASON_MAX (its test checks they agree). */
export const REJECT_REASON_MAX = 500;
const REJECT_REASON_MIN = 3;

export interface RejectModalModel {
  poId: string;
  version: number;
  poNumber: string;
}

export function buildRejectModal(model: RejectModalModel): ModalView {
  return {
    type: 'modal',
    callback_id: CALLBACK.rejectModal,
    private_metadata: poRefCodec.encode({ po: model.poId, v: model.version }),
    title: label('Reject purchase order', 24),
    submit: label('Reject', 24),
    close: label('Back', 24),
    blocks: [
      section(`Reject *${inline(model.poNumber, 40)}*? The thread will show your reason.`),
      {
        type: 'input',
        block_id: BLOCK.rejectReason,
        label: label('Reason', 2000),
        element: {
          type: 'plain_text_input',
          action_id: ACTION.rejectReason,
          multiline: true,
          min_length: REJECT_REASON_MIN,
          max_length: REJECT_REASON_MAX,
          placeholder: plain('e.g. the lead time is too long for the autumn launch', 150),
        },
      },
    ],
  };
}

/** `view.state.values` of the reject modal → the trimmed reason, or a field error keyed by block id. */
export function parseRejectModal(stateValues: unknown): ParseResult<{ reason: string }> {
  const reason = new ModalState(stateValues).text(BLOCK.rejectReason, ACTION.rejectReason);
  if (reason === null || reason.length < REJECT_REASON_MIN) {
    return { ok: false, errors: { [BLOCK.rejectReason]: 'Say why, so the buyer knows what to change.' } };
  }
  if (reason.length > REJECT_REASON_MAX) {
    return { ok: false, errors: { [BLOCK.rejectReason]: `Keep the reason under ${REJECT_REASON_MAX} characters.` } };
  }
  return { ok: true, value: { reason } };
}
