import { describe, expect, it } from 'vitest';
import { countDuplicates, longestQuiet, minPostGapMs, percentile } from './call-log-figures.js';

const call = (method: string, args: Record<string, unknown>, atMs = 0, ok = true, error?: string) => ({
  method,
  args: args as never,
  ok,
  atMs,
  ...(error ? { error } : {}),
});

describe('countDuplicates', () => {
  it('counts a repeated post by its outbox key, ignoring refused calls', () => {
    const meta = (key: string) => ({ event_type: 'parley_outbox', event_payload: { key } });
    const counts = countDuplicates([
      call('chat.postMessage', { channel: 'C1', text: 'a', metadata: meta('k1') }),
      call('chat.postMessage', { channel: 'C1', text: 'a again', metadata: meta('k1') }),
      call('chat.postMessage', { channel: 'C1', text: 'b', metadata: meta('k2') }),
      call('chat.postMessage', { channel: 'C1', text: 'c', metadata: meta('k3') }, 0, false, 'internal_error'),
      call('chat.postMessage', { channel: 'C1', text: 'c', metadata: meta('k3') }),
    ]);
    expect(counts).toEqual({ posts: 1, edits: 0, uploads: 0, reactions: 0, total: 1 });
  });

  it('counts an edit repeated with the same content, not a later different edit', () => {
    const counts = countDuplicates([
      call('chat.update', { channel: 'C1', ts: '1.1', text: 'v1' }),
      call('chat.update', { channel: 'C1', ts: '1.1', text: 'v1' }),
      call('chat.update', { channel: 'C1', ts: '1.1', text: 'v2' }),
      call('chat.update', { channel: 'C1', ts: '2.2', text: 'v2' }),
    ]);
    expect(counts.edits).toBe(1);
    expect(counts.total).toBe(1);
  });

  it('counts repeated uploads and reactions, including already_reacted', () => {
    const upload = { channel_id: 'C1', thread_ts: '1.1', files: [{ id: 'F1', title: 'po.xlsx' }] };
    const counts = countDuplicates([
      call('files.completeUploadExternal', upload),
      call('files.completeUploadExternal', upload),
      call('files.completeUploadExternal', { ...upload, files: [{ id: 'F2', title: 'other.xlsx' }] }),
      call('reactions.add', { channel: 'C1', timestamp: '1.1', name: 'eyes' }),
      call('reactions.add', { channel: 'C1', timestamp: '1.1', name: 'eyes' }, 0, false, 'already_reacted'),
      call('reactions.add', { channel: 'C1', timestamp: '1.1', name: 'white_check_mark' }),
    ]);
    expect(counts).toEqual({ posts: 0, edits: 0, uploads: 1, reactions: 1, total: 2 });
  });
});

describe('minPostGapMs', () => {
  it('is the smallest gap between accepted posts within one channel', () => {
    const gap = minPostGapMs([
      call('chat.postMessage', { channel: 'C1' }, 1_000),
      call('chat.postMessage', { channel: 'C2' }, 1_010),
      call('chat.postMessage', { channel: 'C1' }, 2_500),
      call('chat.postMessage', { channel: 'C1' }, 2_600, false),
      call('chat.postMessage', { channel: 'C1' }, 3_700),
      call('chat.update', { channel: 'C1' }, 3_701),
    ]);
    expect(gap).toBe(1_200);
  });

  it('is null with no two posts in a channel', () => {
    expect(minPostGapMs([call('chat.postMessage', { channel: 'C1' }, 5)])).toBeNull();
  });
});

describe('longestQuiet', () => {
  it('is the longest time between two accepted calls from the first action on, with the calls around it', () => {
    const quiet = longestQuiet(
      [
        call('auth.test', {}, 0),
        call('chat.postMessage', { channel: 'C1' }, 60_000),
        call('chat.update', { channel: 'C1' }, 61_000),
        call('chat.postMessage', { channel: 'C1' }, 70_000, false, 'internal_error'),
        call('chat.update', { channel: 'C1' }, 95_000),
        call('chat.postMessage', { channel: 'C1' }, 96_000),
      ],
      50_000,
    );
    // The start-up call before 50 s does not count, and a refused call is no sign of life.
    expect(quiet).toEqual({ ms: 34_000, after: 'chat.update', before: 'chat.update' });
  });

  it('is 0 with fewer than two calls', () => {
    expect(longestQuiet([call('chat.postMessage', {}, 5)], 0)).toEqual({ ms: 0, after: null, before: null });
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile([7, 3], 99)).toBe(7);
    expect(percentile([], 99)).toBe(0);
  });
});
