// Reads reused for a short while: served from memory while young, read again in the background once older than the
// refresh age, never served past the max age, and forgotten at once when this process changes what was read.
import { describe, expect, it } from 'vitest';
import { recentReads } from './recent-reads.js';

function setUp(options: { epoch?: () => number } = {}) {
  let now = 0;
  let version = 1;
  const loads: string[] = [];
  let hold: Promise<void> | null = null;
  const load = async (key: string): Promise<string | null> => {
    loads.push(key);
    const value = key === 'missing' ? null : `${key}@${version}`;
    if (hold) await hold;
    return value;
  };
  const reads = recentReads(load, { maxAgeMs: 5_000, refreshAfterMs: 1_000, now: () => now, ...options });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    reads,
    loads,
    settle,
    advance: (ms: number) => (now += ms),
    change: () => (version += 1),
    holdLoads: () => {
      let release: () => void = () => {};
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

describe('recentReads', () => {
  it('reads once, then serves from memory while younger than the refresh age', async () => {
    const { reads, loads } = setUp();
    expect(await reads.get('T1')).toBe('T1@1');
    expect(await reads.get('T1')).toBe('T1@1');
    expect(loads).toEqual(['T1']);
  });

  it('shares one read among requests that find nothing', async () => {
    const { reads, loads } = setUp();
    const values = await Promise.all(Array.from({ length: 20 }, () => reads.get('T1')));
    expect(new Set(values)).toEqual(new Set(['T1@1']));
    expect(loads).toEqual(['T1']);
  });

  it('past the refresh age, serves what it has and reads again in the background', async () => {
    const { reads, loads, advance, change, settle } = setUp();
    await reads.get('T1');
    change();
    advance(1_500);
    expect(await reads.get('T1')).toBe('T1@1');
    await settle();
    expect(loads).toEqual(['T1', 'T1']);
    expect(await reads.get('T1')).toBe('T1@2');
  });

  it('never serves a value past the max age: the request waits for a new read', async () => {
    const { reads, advance, change } = setUp();
    await reads.get('T1');
    change();
    advance(5_000);
    expect(await reads.get('T1')).toBe('T1@2');
  });

  it('forgets at once what this process changed (forget, or the epoch moving on), even while a read runs', async () => {
    let epoch = 0;
    const { reads, loads, change, holdLoads } = setUp({ epoch: () => epoch });
    await reads.get('T1');
    change();
    epoch += 1;
    expect(await reads.get('T1')).toBe('T1@2');

    // A read that started before a change is not kept.
    const release = holdLoads();
    const running = reads.get('T2');
    change();
    reads.forget('T2');
    release();
    expect(await running).toBe('T2@2');
    expect(await reads.get('T2')).toBe('T2@3');
    expect(loads).toEqual(['T1', 'T1', 'T2', 'T2']);
  });

  it('past the max age, a request joins the refresh already running instead of reading again', async () => {
    const { reads, loads, advance, holdLoads } = setUp();
    await reads.get('T1');
    advance(1_500);
    const release = holdLoads();
    expect(await reads.get('T1')).toBe('T1@1'); // served; a refresh starts, held
    advance(5_000);
    const waiting = reads.get('T1'); // too old to serve: it waits for the refresh
    release();
    expect(await waiting).toBe('T1@1');
    expect(loads).toEqual(['T1', 'T1']);
  });

  it('keeps nothing for a key not found', async () => {
    const { reads, loads } = setUp();
    expect(await reads.get('missing')).toBeNull();
    expect(await reads.get('missing')).toBeNull();
    expect(loads).toEqual(['missing', 'missing']);
  });
});
