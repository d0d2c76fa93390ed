// What a transaction does while it holds the connection (on PGlite the only one, the acks waiting behind it): each
// call made through the transaction's client, for tests that keep per-line work and CPU out of transactions.
import type { WorkspaceDb } from '../../src/db/scoped.js';

/**
 * The same database, noting each transaction's calls (`model.method`, or the raw statement's kind) — enough to see
 * what a transaction does while it holds the connection.
 */
export function recordingTransactions(db: WorkspaceDb, transactions: string[][]): WorkspaceDb {
  const recordingTx = (tx: object, calls: string[]) =>
    new Proxy(tx, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof property !== 'string') return value;
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            calls.push(property);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        if (typeof value !== 'object' || value === null || property.startsWith('$')) return value;
        return new Proxy(value, {
          get(delegate, method, inner) {
            const fn: unknown = Reflect.get(delegate, method, inner);
            if (typeof fn !== 'function' || typeof method !== 'string') return fn;
            return (...args: unknown[]) => {
              calls.push(`${property}.${method}`);
              return (fn as (...a: unknown[]) => unknown).apply(delegate, args);
            };
          },
        });
      },
    });
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== '$transaction' || typeof value !== 'function') return value;
      return (work: unknown, options?: unknown) => {
        if (typeof work !== 'function') return (value as (...a: unknown[]) => unknown).call(target, work, options);
        const calls: string[] = [];
        transactions.push(calls);
        return (value as (...a: unknown[]) => unknown).call(
          target,
          (tx: object) => (work as (tx: object) => unknown)(recordingTx(tx, calls)),
          options,
        );
      };
    },
  });
}
