// The checkpoint's stored form, without a database: random values and random edits round-trip exactly (as the JSON
// column held them), long arrays are shared by content, and keys that look like markers stay data.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../commerce/rng.js';
import {
  applyOps,
  decode,
  diffStates,
  encode,
  type Json,
  type LineSets,
  SHARED_MIN_LENGTH,
} from './checkpoint-codec.js';

type Rng = ReturnType<typeof createRng>;

/** JSON as the column would hold it. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Json;
const reader = (lineSets: LineSets) => (hash: string) => {
  const body = lineSets.get(hash);
  if (body === undefined) throw new Error(`no line set ${hash}`);
  return body;
};

function randomScalar(rng: Rng): unknown {
  const pick = rng.int(0, 7);
  if (pick === 0) return null;
  if (pick === 1) return rng.next() < 0.5;
  if (pick === 2) return rng.int(-1000, 1000);
  if (pick === 3) return Math.round(rng.next() * 1e6) / 100;
  if (pick === 4) return undefined;
  if (pick === 5) return rng.next() < 0.5 ? Number.NaN : '$ls';
  return ['a', 'b c', '', '"quoted"', 'ünï', '$cols'][rng.int(0, 5)];
}

function randomLine(rng: Rng, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, key === 'tiers' ? [] : randomScalar(rng)]));
}

function randomValue(rng: Rng, depth: number): unknown {
  const pick = depth > 3 ? 0 : rng.int(0, 4);
  if (pick === 0) return randomScalar(rng);
  if (pick === 1) {
    // Long and uniform (lines), long and mixed, or short.
    const length = rng.next() < 0.5 ? rng.int(SHARED_MIN_LENGTH, SHARED_MIN_LENGTH * 3) : rng.int(0, 5);
    const keys = ['sku', 'quantity', 'unitPrice', 'tiers'].slice(0, rng.int(1, 4));
    if (rng.next() < 0.6) return Array.from({ length }, () => randomLine(rng, keys));
    return Array.from({ length }, () => randomValue(rng, depth + 1));
  }
  const keys = ['status', 'offers', 'lines', '$ls', '$obj', 'messages', 'x'].filter(() => rng.next() < 0.5);
  return Object.fromEntries(keys.map((key) => [key, randomValue(rng, depth + 1)]));
}

/** A copy of `value` with a few random edits, sharing what it does not edit (as the engine copies on write). */
function edited(rng: Rng, value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) {
    const copy = [...value];
    const what = rng.int(0, 4);
    if (what === 0) copy.push(randomValue(rng, depth + 1));
    else if (what === 1 && copy.length > 0) copy.length = rng.int(0, copy.length - 1);
    else if (copy.length > 0) {
      const index = rng.int(0, copy.length - 1);
      copy[index] = edited(rng, copy[index], depth + 1);
    }
    return copy;
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = { ...value };
    const keys = Object.keys(copy);
    const what = rng.int(0, 3);
    if (what === 0 || keys.length === 0)
      copy[['fresh', 'x', '$n', 'lines'][rng.int(0, 3)] ?? 'x'] = randomValue(rng, 2);
    else if (what === 1) delete copy[keys[rng.int(0, keys.length - 1)] ?? ''];
    else {
      const key = keys[rng.int(0, keys.length - 1)] ?? '';
      copy[key] = edited(rng, copy[key], depth + 1);
    }
    return copy;
  }
  return randomValue(rng, depth);
}

describe('the stored form of a checkpoint', () => {
  it('gives back exactly what JSON gives back, over random values', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const rng = createRng(seed);
      const value = { root: randomValue(rng, 0) };
      const lineSets: LineSets = new Map();
      const stored = encode(value, lineSets);
      expect(decode(asJson(stored), reader(lineSets)), `seed ${seed}`).toEqual(asJson(value));
      expect(JSON.stringify(decode(asJson(stored), reader(lineSets)))).toBe(JSON.stringify(value));
    }
  });

  it('turns one state into the next through its delta, over random chains of edits', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const rng = createRng(1000 + seed);
      let before: unknown = { root: randomValue(rng, 0), list: [1, 2, 3] };
      const lineSets: LineSets = new Map();
      let loaded = decode(asJson(encode(before, lineSets)), reader(lineSets));
      for (let edit = 0; edit < 8; edit++) {
        const after = edited(rng, before);
        const ops = asJson(diffStates(before, after, lineSets)) as unknown as Parameters<typeof applyOps>[1];
        loaded = applyOps(loaded, ops, reader(lineSets));
        expect(loaded, `seed ${seed}, edit ${edit}`).toEqual(asJson(after));
        before = after;
      }
    }
  });

  it('stores a long array of lines column by column, each column once', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => ({
      sku: `SKU-${i}`,
      quantity: 10 + i,
      unitPrice: 5 + i / 100,
    }));
    const repriced = lines.map((line) => ({ ...line, unitPrice: line.unitPrice * 0.95 }));
    const lineSets: LineSets = new Map();
    encode({ baseline: lines }, lineSets);
    const before = new Map(lineSets);
    const stored = encode({ offer: repriced }, lineSets);
    // The new offer's SKUs and quantities are the baseline's: only its prices are new.
    const added = [...lineSets.keys()].filter((hash) => !before.has(hash));
    expect(added).toHaveLength(1);
    expect(lineSets.get(added[0] ?? '')).toBe(JSON.stringify(repriced.map((line) => line.unitPrice)));
    expect(JSON.stringify(stored).length).toBeLessThan(300);
  });

  it('keeps an agent’s keys that look like its markers as data', () => {
    const payload = { $ls: 'not-a-hash', nested: { $cols: { a: 1 }, $n: 1 }, $obj: { x: 1 } };
    const lineSets: LineSets = new Map();
    expect(decode(asJson(encode(payload, lineSets)), reader(lineSets))).toEqual(payload);
  });

  it('diffs a step that appends one message to a long history into one small operation', () => {
    const message = (i: number) => ({ round: 1, from: 'brand', text: `message ${i}`, action: null });
    const before = { messages: Array.from({ length: 40 }, (_, i) => message(i)), round: 1 };
    const after = { ...before, messages: [...before.messages, message(40)] };
    const ops = diffStates(before, after, new Map());
    expect(ops).toEqual([{ p: ['messages'], push: [message(40)] }]);
  });
});
