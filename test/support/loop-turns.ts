/**
 * Awaits `work` while counting this thread's event-loop turns. Work done on this thread runs in long synchronous
 * stretches (a ranking, a decision, a sheet's structuring), so the loop turns often only while the work is elsewhere.
 * Unlike a busy or stall time, a turn count does not shift with how loaded the machine is: tests that measured times
 * failed on CI's loaded two cores (a deserialisation of 15–25 ms measured 190 ms there).
 */
export async function loopTurnsWhile<T>(work: Promise<T>): Promise<{ turns: number; result: T }> {
  let working = true;
  let turns = 0;
  const turn = () => {
    if (!working) return;
    turns += 1;
    setImmediate(turn);
  };
  setImmediate(turn);
  const result = await work.finally(() => (working = false));
  return { turns, result };
}
