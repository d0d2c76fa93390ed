import { describe, expect, it } from 'vitest';
import { createWorkQueue } from './work-queue.js';

/** A task that records when it starts and ends, and finishes when told to. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('work queue', () => {
  it('runs at most `concurrency` tasks at once, the others in arrival order', async () => {
    const queue = createWorkQueue({ concurrency: 2 });
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let active = 0;
    let most = 0;
    gates.forEach((g, i) =>
      queue.run(`k${i}`, async () => {
        started.push(i);
        most = Math.max(most, ++active);
        await g.opened;
        active -= 1;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(queue.size).toBe(5);
    gates[1]?.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await queue.idle();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(queue.size).toBe(0);
  });

  it('runs a key once more after its running task, never two of one key at once', async () => {
    const queue = createWorkQueue({ concurrency: 4 });
    const first = gate();
    const runs: string[] = [];
    queue.run('neg', async () => {
      runs.push('first');
      await first.opened;
    });
    await tick();
    queue.run('neg', async () => void runs.push('second'));
    queue.run('neg', async () => void runs.push('third'));
    await tick();
    expect(runs).toEqual(['first']);
    first.open();
    await queue.idle();
    // The requests made while it ran are one more run: the latest.
    expect(runs).toEqual(['first', 'third']);
  });

  it('a newer request for a key still waiting replaces it and keeps its place', async () => {
    const queue = createWorkQueue({ concurrency: 1 });
    const blocker = gate();
    const runs: string[] = [];
    queue.run('a', async () => {
      await blocker.opened;
      runs.push('a');
    });
    queue.run('b', async () => void runs.push('b1'));
    queue.run('c', async () => void runs.push('c'));
    queue.run('b', async () => void runs.push('b2'));
    blocker.open();
    await queue.idle();
    expect(runs).toEqual(['a', 'b2', 'c']);
  });

  it('a failing task is logged and does not stop the queue', async () => {
    const queue = createWorkQueue({ concurrency: 1 });
    const runs: string[] = [];
    queue.run('bad', async () => {
      throw new Error('boom');
    });
    queue.run('good', async () => void runs.push('good'));
    await queue.idle();
    expect(runs).toEqual(['good']);
  });

  it('runs a task again after an error its retry policy accepts, up to the attempts allowed', async () => {
    const queue = createWorkQueue({
      concurrency: 1,
      retry: { when: (error) => error instanceof Error && error.message === 'blip', attempts: 3, delayMs: () => 1 },
    });
    let flaky = 0;
    queue.run('flaky', async () => {
      flaky += 1;
      if (flaky < 3) throw new Error('blip');
    });
    let broken = 0;
    queue.run('broken', async () => {
      broken += 1;
      throw new Error('bug');
    });
    let down = 0;
    queue.run('down', async () => {
      down += 1;
      throw new Error('blip');
    });
    await queue.idle();
    expect(flaky).toBe(3);
    expect(broken).toBe(1);
    expect(down).toBe(3);
  });
});
