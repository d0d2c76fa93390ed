export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** Up to `n` distinct items in random order. */
  sample<T>(items: readonly T[], n: number): T[];
}

/** mulberry32: tiny, fast and good enough for fixtures; Math.random cannot be seeded, and the catalog must be stable. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;

  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));

  return {
    next,
    int,
    pick(items) {
      const item = items[int(0, items.length - 1)];
      if (item === undefined) throw new Error('cannot pick from an empty list');
      return item;
    },
    sample(items, n) {
      const pool = [...items];
      const picked: typeof pool = [];
      while (picked.length < n && pool.length > 0) picked.push(...pool.splice(int(0, pool.length - 1), 1));
      return picked;
    },
  };
}

/** FNV-1a of a string, as an unsigned 32-bit number: a stable seed derived from a name or an id. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const ch of text) hash = Math.imul(hash ^ (ch.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return hash;
}
