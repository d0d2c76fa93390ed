import { describe, expect, it } from 'vitest';
import { describeFault, Faults } from './faults.js';

const draws = (faults: Faults, n: number) =>
  Array.from({ length: n }, () => (faults.take('chat.postMessage') === undefined ? '.' : 'x')).join('');

describe('Faults', () => {
  it('fires a rule the given number of times, for its method or for every method with "*"', () => {
    const faults = new Faults(1).set('chat.update', { status: 500 }, { times: 2 });
    expect(faults.take('chat.postMessage')).toBeUndefined();
    expect([faults.take('chat.update'), faults.take('chat.update'), faults.take('chat.update')]).toEqual([
      { status: 500 },
      { status: 500 },
      undefined,
    ]);
    faults.set('*', { hangMs: 10 }, { times: 1 });
    expect(faults.take('users.info')).toEqual({ hangMs: 10 });
    expect(faults.active()).toEqual([]);
  });

  it('is random with a probability, but the same for the same seed, and restarts on clear()', () => {
    const rule = { status: 429 as const, retryAfterSeconds: 1 };
    const a = new Faults(42).set('chat.postMessage', rule, { probability: 0.3 });
    const b = new Faults(42).set('chat.postMessage', rule, { probability: 0.3 });
    const first = draws(a, 200);
    expect(draws(b, 200)).toBe(first);
    const hits = [...first].filter((c) => c === 'x').length;
    expect(hits).toBeGreaterThan(30);
    expect(hits).toBeLessThan(90);
    expect(draws(new Faults(7).set('chat.postMessage', rule, { probability: 0.3 }), 200)).not.toBe(first);
    a.clear();
    a.set('chat.postMessage', rule, { probability: 0.3 });
    expect(draws(a, 200)).toBe(first);
  });

  it('fires a rule with `when` only for calls whose arguments pass, which neither use up its times nor draw', () => {
    const rule = { status: 429 as const, retryAfterSeconds: 1 };
    const only = (args: { text?: unknown }) => args.text === 'doomed';
    const faults = new Faults(42).set('chat.postMessage', rule, { times: 2, probability: 0.3, when: only });
    const plain = new Faults(42).set('chat.postMessage', rule, { times: 2, probability: 0.3 });
    const doomed = { text: 'doomed' };
    const sequence = (f: Faults, between: number) =>
      Array.from({ length: 40 }, () => {
        for (let i = 0; i < between; i++) expect(f.take('chat.postMessage', { text: 'fine' })).toBeUndefined();
        return f.take('chat.postMessage', doomed) === undefined ? '.' : 'x';
      }).join('');
    expect(sequence(faults, 3)).toBe(sequence(plain, 0));
    expect(faults.active()).toEqual([]);
  });

  it('describes when a hanging call takes effect', () => {
    expect(describeFault({ hangMs: 500 })).toBe('hang 500ms');
    expect(describeFault({ hangMs: 500, apply: 'first' })).toBe('hang 500ms, applied at once');
    expect(describeFault({ hangMs: 500, apply: 'never' })).toBe('hang 500ms, never applied');
  });

  it('refuses nonsense scopes', () => {
    expect(() => new Faults().set('*', { status: 500 }, { probability: 2 })).toThrow(/probability/);
    expect(() => new Faults().set('*', { status: 500 }, { times: 0 })).toThrow(/times/);
  });
});
