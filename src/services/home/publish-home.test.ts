import { describe, expect, it } from 'vitest';
import { coalescePerPerson } from './publish-home.js';

/** A publish that runs until released, recording each run. */
function heldPublish() {
  const runs: string[] = [];
  const releases: (() => void)[] = [];
  const publish = (teamId: string, userId: string) => {
    runs.push(`${teamId}/${userId}`);
    return new Promise<void>((resolve) => releases.push(resolve));
  };
  const releaseNext = async () => {
    releases.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { publish, runs, releaseNext };
}

describe('coalescePerPerson', () => {
  it('runs once more after the running publish for every burst of opens, not once per open', async () => {
    const { publish, runs, releaseNext } = heldPublish();
    const request = coalescePerPerson(publish);
    const first = request('T1', 'U1');
    for (let i = 0; i < 19; i++) void request('T1', 'U1');
    expect(runs).toEqual(['T1/U1']);
    await releaseNext();
    expect(runs).toEqual(['T1/U1', 'T1/U1']);
    await releaseNext();
    await first;
    expect(runs).toHaveLength(2);
    // Later opens start again.
    void request('T1', 'U1');
    expect(runs).toHaveLength(3);
    await releaseNext();
  });

  it('runs for different people (or teams) side by side, only a few at once', async () => {
    const { publish, runs, releaseNext } = heldPublish();
    const request = coalescePerPerson(publish, 2);
    const opened = ['T1/U1', 'T1/U2', 'T2/U1', 'T2/U2', 'T2/U3'].map((key) => {
      const [team = '', user = ''] = key.split('/');
      return request(team, user);
    });
    // Two builds hold the database; the others wait for a slot rather than for a connection a click needs.
    expect(runs).toEqual(['T1/U1', 'T1/U2']);
    await releaseNext();
    expect(runs).toEqual(['T1/U1', 'T1/U2', 'T2/U1']);
    for (let i = 0; i < 4; i++) await releaseNext();
    await Promise.all(opened);
    expect(runs).toEqual(['T1/U1', 'T1/U2', 'T2/U1', 'T2/U2', 'T2/U3']);
  });

  it('lets opens that come while a build still waits for its turn ride on that build', async () => {
    const { publish, runs, releaseNext } = heldPublish();
    const request = coalescePerPerson(publish, 1);
    const other = request('T1', 'U2');
    // U1's build waits for the one slot; three more opens of U1 come meanwhile.
    const first = request('T1', 'U1');
    for (let i = 0; i < 3; i++) void request('T1', 'U1');
    expect(runs).toEqual(['T1/U2']);
    await releaseNext();
    expect(runs).toEqual(['T1/U2', 'T1/U1']);
    await releaseNext();
    await Promise.all([first, other]);
    // It had read nothing when they came: one build answers all four opens.
    expect(runs).toEqual(['T1/U2', 'T1/U1']);
  });

  it('a failed publish does not keep the person blocked', async () => {
    let calls = 0;
    const request = coalescePerPerson(async () => {
      calls += 1;
      if (calls === 1) throw new Error('database unavailable');
    });
    await expect(request('T1', 'U1')).rejects.toThrow('database unavailable');
    await request('T1', 'U1');
    expect(calls).toBe(2);
  });
});
