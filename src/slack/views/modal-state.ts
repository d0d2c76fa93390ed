// Reading a submitted modal's `view.state.values` (block id → action id → value) with zod: the payload comes from
// Slack, so every field is checked rather than trusted, and field errors come back keyed by block id, the shape Bolt's
// `ack({ response_action: 'errors', errors })` takes.
import { z } from 'zod';

const stateValueSchema = z.looseObject({
  type: z.string(),
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
  selected_users: z.array(z.string()).nullish(),
  selected_options: z.array(z.looseObject({ value: z.string() })).nullish(),
  selected_date: z.string().nullish(),
  selected_conversation: z.string().nullish(),
});
type StateValue = z.infer<typeof stateValueSchema>;

const stateValuesSchema = z.record(z.string(), z.record(z.string(), z.unknown()));

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

export class ModalState {
  private readonly values: Record<string, Record<string, unknown>>;

  constructor(values: unknown) {
    const parsed = stateValuesSchema.safeParse(values);
    this.values = parsed.success ? parsed.data : {};
  }

  private get(blockId: string, actionId: string): StateValue | null {
    const parsed = stateValueSchema.safeParse(this.values[blockId]?.[actionId]);
    return parsed.success ? parsed.data : null;
  }

  /** A text or number input's value, trimmed; null when empty or absent. */
  text(blockId: string, actionId: string): string | null {
    const v = this.get(blockId, actionId)?.value?.trim();
    return v ? v : null;
  }

  selected(blockId: string, actionId: string): string | null {
    return this.get(blockId, actionId)?.selected_option?.value ?? null;
  }

  /** A conversations_select's channel id; null when none is picked. */
  conversation(blockId: string, actionId: string): string | null {
    return this.get(blockId, actionId)?.selected_conversation ?? null;
  }

  users(blockId: string, actionId: string): string[] | null {
    return this.get(blockId, actionId)?.selected_users ?? null;
  }

  /** A datepicker's date as Slack sends it (YYYY-MM-DD); null when none is picked or the block is absent. */
  date(blockId: string, actionId: string): string | null {
    return this.get(blockId, actionId)?.selected_date ?? null;
  }

  /** Whether the modal has this input at all: an absent checkboxes block and one with nothing ticked differ. */
  has(blockId: string, actionId: string): boolean {
    return this.get(blockId, actionId) !== null;
  }

  /** The values of a checkboxes element's ticked options; empty when none is ticked or the block is absent. */
  checked(blockId: string, actionId: string): string[] {
    return (this.get(blockId, actionId)?.selected_options ?? []).map((option) => option.value);
  }
}

/** Up to two decimals, positive, below a trillion: an amount a person typed. */
export function parseAmount(raw: string | null): { ok: true; value: number | null } | { ok: false; error: string } {
  if (raw === null) return { ok: true, value: null };
  const cleaned = raw.replace(/[,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) {
    return { ok: false, error: 'Enter an amount like 41650 or 41650.50 (at most two decimals).' };
  }
  const value = Number(cleaned);
  if (!(value > 0)) return { ok: false, error: 'Enter an amount above zero.' };
  if (value >= 1e12) return { ok: false, error: 'That amount is too large.' };
  return { ok: true, value };
}

/** A whole number within [min, max]. */
export function parseWhole(
  raw: string | null,
  min: number,
  max: number,
): { ok: true; value: number | null } | { ok: false; error: string } {
  if (raw === null) return { ok: true, value: null };
  if (!/^\d+$/.test(raw)) return { ok: false, error: `Enter a whole number from ${min} to ${max}.` };
  const value = Number(raw);
  if (value < min || value > max) return { ok: false, error: `Enter a whole number from ${min} to ${max}.` };
  return { ok: true, value };
}
