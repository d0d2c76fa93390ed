// How a negotiation's state is stored so that a step writes what it changed, not the whole state. Pure: no database.
//
// Line sets. A 3,000-line quotation puts 3,000-element arrays in the state — the baseline's lines, every offer's lines,
// every agent turn's per-line asks — and most of them repeat each other column by column: an offer has the baseline's
// SKUs and quantities and only new prices. So an array of at least SHARED_MIN_LENGTH elements is stored by content: an
// array of objects with the same keys is split into columns (each encoded again), and any other long array (a column
// of prices, of SKUs) becomes a line set — its JSON text, named by its hash, written once per negotiation and
// referenced as `{"$ls": hash}`. A new offer then writes one column of prices; its SKUs, quantities and tiers are the
// line sets the baseline already wrote.
//
// Deltas. Between two checkpoints, `diffStates` lists the changes (set, delete, append, truncate at a path), their
// values encoded as above. The engine copies on write (structural sharing), so unchanged parts of two consecutive
// states are the same objects and the diff skips them without looking inside.
//
// Both follow JSON's rules, as the JSON column did: an undefined property is absent, an undefined array element is
// null, a non-finite number is null. `decode(encode(x))` equals `JSON.parse(JSON.stringify(x))`.
import { createHash } from 'node:crypto';

/** Arrays this long or longer are stored by content; shorter ones inline (a 16-line quotation stores no line sets). */
export const SHARED_MIN_LENGTH = 32;

/** A large array whose contents changed in more places than this is written again whole (as line sets). */
const MAX_ELEMENT_OPS = 8;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Line-set bodies (JSON text) by hash: what an encoding references. */
export type LineSets = Map<string, string>;

type Key = string | number;
export type CheckpointOp =
  { p: Key[]; set: Json } | { p: Key[]; del: 1 } | { p: Key[]; push: Json[] } | { p: Key[]; len: number };

const LINE_SET = '$ls';
const COLUMNS = '$cols';
const LENGTH = '$n';
/** Wraps a stored object whose own keys begin with `$` (an LLM's payload may have any key), so none reads as a marker. */
const ESCAPED = '$obj';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value as JSON.stringify would see it: toJSON applied, undefined and functions absent, non-finite numbers null. */
function jsonView(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  return value;
}

function definedKeys(object: Record<string, unknown>): string[] {
  return Object.keys(object).filter((key) => jsonView(object[key]) !== undefined);
}

export function lineSetHash(body: string): string {
  return createHash('sha256').update(body).digest('base64url').slice(0, 32);
}

/** The stored form of `value`; the line sets it references are added to `lineSets`. */
export function encode(value: unknown, lineSets: LineSets): Json {
  const view = jsonView(value);
  if (view === undefined || view === null) return null;
  if (Array.isArray(view)) {
    if (view.length < SHARED_MIN_LENGTH) return view.map((element) => encode(element, lineSets));
    const columns = sameKeys(view);
    if (columns) {
      const encoded: Record<string, Json> = {};
      for (const key of columns)
        encoded[key] = encode(
          view.map((row: Record<string, unknown>) => row[key]),
          lineSets,
        );
      return { [COLUMNS]: encoded, [LENGTH]: view.length };
    }
    const body = JSON.stringify(view.map((element) => encode(element, lineSets)));
    const hash = lineSetHash(body);
    lineSets.set(hash, body);
    return { [LINE_SET]: hash };
  }
  if (isPlainObject(view)) {
    const encoded: Record<string, Json> = {};
    let escaped = false;
    for (const key of definedKeys(view)) {
      if (key.startsWith('$')) escaped = true;
      encoded[key] = encode(view[key], lineSets);
    }
    return escaped ? { [ESCAPED]: encoded } : encoded;
  }
  return view as Json;
}

/** The keys every element has, in the same order, when every element is a plain object; otherwise null. */
function sameKeys(array: unknown[]): string[] | null {
  let keys: string[] | null = null;
  let signature = '';
  for (const element of array) {
    const view = jsonView(element);
    if (!isPlainObject(view)) return null;
    const own = definedKeys(view);
    if (keys === null) {
      keys = own;
      signature = own.join('\u0000');
    } else if (own.join('\u0000') !== signature) return null;
  }
  return keys;
}

/** The hashes of the line sets an encoded value references directly (not those inside the line sets). */
export function referencedLineSets(value: Json, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const element of value) referencedLineSets(element, into);
  else if (isPlainObject(value)) {
    const hash = value[LINE_SET];
    if (typeof hash === 'string' && Object.keys(value).length === 1) into.add(hash);
    else for (const inner of Object.values(value)) referencedLineSets(inner, into);
  }
  return into;
}

/** The value back from its stored form; `lineSet(hash)` gives a referenced line set's JSON text. */
export function decode(value: Json, lineSet: (hash: string) => string): Json {
  if (Array.isArray(value)) return value.map((element) => decode(element, lineSet));
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === LINE_SET && typeof value[LINE_SET] === 'string') {
    return decode(JSON.parse(lineSet(value[LINE_SET])) as Json, lineSet);
  }
  if (keys.length === 2 && isPlainObject(value[COLUMNS]) && typeof value[LENGTH] === 'number') {
    const length = value[LENGTH];
    const rows: Record<string, Json>[] = Array.from({ length }, () => ({}));
    for (const [key, column] of Object.entries(value[COLUMNS])) {
      const values = decode(column, lineSet);
      if (!Array.isArray(values) || values.length !== length) throw new Error(`column ${key} is not ${length} long`);
      values.forEach((cell, index) => {
        (rows[index] as Record<string, Json>)[key] = cell;
      });
    }
    return rows;
  }
  const inner = keys.length === 1 && keys[0] === ESCAPED && isPlainObject(value[ESCAPED]) ? value[ESCAPED] : value;
  const decoded: Record<string, Json> = {};
  for (const [key, entry] of Object.entries(inner)) decoded[key] = decode(entry, lineSet);
  return decoded;
}

// ───────────────────────────── Deltas ─────────────────────────────

/** The changes that turn `before` into `after` (both as the engine holds them), values encoded into `lineSets`. */
export function diffStates(before: unknown, after: unknown, lineSets: LineSets): CheckpointOp[] {
  const ops: CheckpointOp[] = [];
  diff(before, after, [], ops, lineSets);
  return ops;
}

function diff(before: unknown, after: unknown, path: Key[], ops: CheckpointOp[], lineSets: LineSets): void {
  if (before === after) return;
  const a = jsonView(before);
  const b = jsonView(after);
  if (a === b) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of definedKeys(b)) {
      if (jsonView(a[key]) === undefined) ops.push({ p: [...path, key], set: encode(b[key], lineSets) });
      else diff(a[key], b[key], [...path, key], ops, lineSets);
    }
    for (const key of definedKeys(a)) if (jsonView(b[key]) === undefined) ops.push({ p: [...path, key], del: 1 });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const inner: CheckpointOp[] = [];
    const common = Math.min(a.length, b.length);
    // An element undefined on one side and null on the other is the same JSON: null.
    for (let index = 0; index < common; index++)
      diff(a[index] ?? null, b[index] ?? null, [...path, index], inner, lineSets);
    const large = Math.max(a.length, b.length) >= SHARED_MIN_LENGTH;
    if (large && inner.length > MAX_ELEMENT_OPS) {
      ops.push({ p: path, set: encode(b, lineSets) });
      return;
    }
    ops.push(...inner);
    if (b.length > a.length) ops.push({ p: path, push: b.slice(a.length).map((element) => encode(element, lineSets)) });
    else if (b.length < a.length) ops.push({ p: path, len: b.length });
    return;
  }
  ops.push({ p: path, set: encode(b, lineSets) });
}

/**
 * Applies a delta to a decoded state, in place (the state is the loader's own copy). Values are decoded with
 * `lineSet`. Returns the state: a delta that sets the root replaces it.
 */
export function applyOps(state: Json, ops: readonly CheckpointOp[], lineSet: (hash: string) => string): Json {
  let root = state;
  for (const op of ops) {
    if (op.p.length === 0) {
      if (!('set' in op)) throw new Error('only a set may replace the whole state');
      root = decode(op.set, lineSet);
      continue;
    }
    const parent = op.p.slice(0, -1).reduce<Json>((node, key) => step(node, key), root);
    const last = op.p[op.p.length - 1] as Key;
    if ('set' in op) assign(parent, last, decode(op.set, lineSet));
    else if ('del' in op) {
      if (!isPlainObject(parent)) throw new Error(`cannot delete ${String(last)} from a non-object`);
      delete parent[String(last)];
    } else {
      const target = step(parent, last);
      if (!Array.isArray(target)) throw new Error(`${op.p.join('.')} is not an array`);
      if ('push' in op) target.push(...op.push.map((element) => decode(element, lineSet)));
      else target.length = op.len;
    }
  }
  return root;
}

function step(node: Json, key: Key): Json {
  const next = Array.isArray(node) ? node[Number(key)] : isPlainObject(node) ? node[String(key)] : undefined;
  if (next === undefined) throw new Error(`checkpoint delta names a missing path (${String(key)})`);
  return next;
}

function assign(parent: Json, key: Key, value: Json): void {
  if (Array.isArray(parent)) parent[Number(key)] = value;
  else if (isPlainObject(parent)) parent[String(key)] = value;
  else throw new Error(`cannot set ${String(key)} on a scalar`);
}
