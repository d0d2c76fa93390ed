// One text per value: used wherever two JSON values are compared or hashed (a PO's digest, an outbox edit against the
// last one), where the key order of a parsed or jsonb-stored object must not matter.

/** JSON with every object's keys sorted (by code unit) and no whitespace: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
