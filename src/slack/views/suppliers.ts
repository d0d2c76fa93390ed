// Suppliers in Slack Connect (`/parley suppliers`): the suppliers connected to a channel shared with their own
// organisation, and the form that connects one (a supplier of the workspace, or a new one by name, and the channel);
// and the note Parley posts in a channel once it is connected, which the supplier's people read. Supplier names come
// from quotations (untrusted) and are escaped here.
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { ACTION, BLOCK, CALLBACK } from '../ids.js';
import { context, section, slackDate, type SlackMessage } from './blocks.js';
import { channelMention, inline, isSlackChannelId, label, mention } from './escape.js';
import { LIMITS } from './limits.js';
import { ModalState, type ParseResult } from './modal-state.js';

export const SUPPLIER_NAME_MAX = 120;

export type SupplierConnectionState = 'connected' | 'not_shared' | 'none';

export interface SupplierRow {
  id: string;
  name: string;
  channelId: string | null;
  state: SupplierConnectionState;
  connectedBy: string | null;
  connectedAt: Date | null;
}

export interface SuppliersModalModel {
  brandName: string;
  /** The workspace's real suppliers (never the simulated references), connected ones first. */
  suppliers: SupplierRow[];
  /** The supplier picked in the form already (a review card's Connect button): one of `suppliers`, by id. */
  preselected?: string | null;
}

/** Suppliers listed in the modal, and offered in its select (Slack's static_select holds up to 100 options). */
export const SUPPLIERS_SHOWN = 40;
const SUPPLIER_OPTIONS_MAX = LIMITS.selectOptions;

function connectionLine(row: SupplierRow): string {
  const name = `*${inline(row.name, 80)}*`;
  if (row.channelId === null || !isSlackChannelId(row.channelId)) return `${name} — not connected`;
  const where = channelMention(row.channelId);
  if (row.state === 'not_shared') {
    return `${name} — ${where} :warning: no longer shared with their organisation only: nothing is sent there`;
  }
  const since = row.connectedAt ? ` since ${slackDate(row.connectedAt)}` : '';
  const by = row.connectedBy ? ` by ${mention(row.connectedBy)}` : '';
  return `${name} — ${where}, connected${by}${since}`;
}

export function buildSuppliersModal(model: SuppliersModalModel): ModalView {
  const listed = model.suppliers.slice(0, SUPPLIERS_SHOWN);
  const blocks: KnownBlock[] = [
    section(
      'Connect a supplier to a *Slack Connect* channel shared with its organisation (and no other). Parley then ' +
        'negotiates with its people there, in a thread per negotiation, and nothing is sent there before someone at ' +
        `${inline(model.brandName, 80)} approves it. Invite Parley to the channel first.`,
    ),
  ];
  if (listed.length > 0) blocks.push(section(listed.map(connectionLine).join('\n')));
  if (model.suppliers.length > listed.length) {
    blocks.push(context([`…and ${model.suppliers.length - listed.length} more.`]));
  }
  const options: PlainTextOption[] = model.suppliers
    .slice(0, SUPPLIER_OPTIONS_MAX)
    .map((s) => ({ text: label(s.name), value: s.id }));
  if (options.length > 0) {
    const initial = options.find((option) => option.value === model.preselected);
    blocks.push({
      type: 'input',
      block_id: BLOCK.supplierPick,
      optional: true,
      label: label('Supplier'),
      element: {
        type: 'static_select',
        action_id: ACTION.supplierPick,
        options,
        ...(initial ? { initial_option: initial } : {}),
      },
    });
  }
  blocks.push(
    {
      type: 'input',
      block_id: BLOCK.supplierNewName,
      optional: options.length > 0,
      label: label(options.length > 0 ? '…or a new supplier' : 'Supplier'),
      hint: label('Its name as it should stand on offers and purchase orders.', 2000),
      element: {
        type: 'plain_text_input',
        action_id: ACTION.supplierNewName,
        max_length: SUPPLIER_NAME_MAX,
      },
    },
    {
      type: 'input',
      block_id: BLOCK.supplierChannel,
      label: label('Slack Connect channel'),
      element: {
        type: 'conversations_select',
        action_id: ACTION.supplierChannel,
        filter: { include: ['public', 'private'], exclude_bot_users: true },
      },
    },
  );
  return {
    type: 'modal',
    callback_id: CALLBACK.suppliersModal,
    title: label('Suppliers', 24),
    submit: label('Connect', 24),
    close: label('Close', 24),
    blocks,
  };
}

/** Which supplier to connect where: one of the workspace's (by id) or a new one (by name). */
export interface SupplierConnectionForm {
  supplier: { id: string } | { name: string };
  channelId: string;
}

export function parseSuppliersModal(stateValues: unknown): ParseResult<SupplierConnectionForm> {
  const state = new ModalState(stateValues);
  const errors: Record<string, string> = {};
  const picked = state.selected(BLOCK.supplierPick, ACTION.supplierPick);
  const name = state.text(BLOCK.supplierNewName, ACTION.supplierNewName)?.replace(/\s+/g, ' ') ?? null;
  const channelId = state.conversation(BLOCK.supplierChannel, ACTION.supplierChannel);
  const nameBlock = state.has(BLOCK.supplierPick, ACTION.supplierPick) ? BLOCK.supplierPick : BLOCK.supplierNewName;
  if (picked !== null && name !== null) errors[nameBlock] = 'Pick a supplier or type a new one’s name, not both.';
  else if (picked === null && name === null) errors[nameBlock] = 'Pick a supplier, or type a new one’s name.';
  else if (name !== null && name.length > SUPPLIER_NAME_MAX) {
    errors[BLOCK.supplierNewName] = `At most ${SUPPLIER_NAME_MAX} characters.`;
  }
  if (channelId === null || !isSlackChannelId(channelId)) {
    errors[BLOCK.supplierChannel] = 'Pick the channel shared with this supplier.';
  }
  if (Object.keys(errors).length > 0 || channelId === null) return { ok: false, errors };
  return { ok: true, value: { supplier: picked !== null ? { id: picked } : { name: name ?? '' }, channelId } };
}

/**
 * Posted in the supplier's channel once it is connected: who Parley is and how the supplier's people deal with it.
 * It reaches another organisation, so it names only the brand and the person who connected the channel.
 */
export function buildSupplierWelcome(model: { brandName: string; supplierName: string; by: string }): SlackMessage {
  const brand = inline(model.brandName, 80);
  return {
    text: `${model.brandName} connected this channel to Parley`,
    blocks: [
      section(
        `:wave: ${mention(model.by)} of *${brand}* connected this channel to *Parley*, an AI agent that negotiates ` +
          `purchases for ${brand}. When ${brand} asks *${inline(model.supplierName, 80)}* for an offer, the request ` +
          'appears here in a thread of its own: reply there, or use its *Submit offer* button.',
      ),
      context([`Every message Parley sends here is approved by a person at ${brand} first.`]),
    ],
  };
}

/** To the buyer (privately): a message Parley did not send to a supplier, and why (discretion-check.ts's words). */
export function buildHeldBackNotice(why: string): SlackMessage {
  return {
    text: 'Parley held a message back from a supplier',
    blocks: [section(`:shield: *Not sent to the supplier.* ${inline(why, 2500)}`)],
  };
}
