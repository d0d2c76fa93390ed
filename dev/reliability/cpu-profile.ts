// Preloaded (`--import`) into a Parley process to profile its CPU: `--cpu-prof` is refused in NODE_OPTIONS, and the
// benchmarks start `src/main.ts` themselves. Profiles from the start and writes a .cpuprofile (open it in Chrome's
// DevTools) into PARLEY_CPU_PROFILE_DIR when the process exits normally (SIGTERM → process.exit), and beside it the
// event loop's delay over the process's life (.eventloop.json: p50, p99 and max in ms) — how long Bolt's acks and
// every other callback had to wait for the thread.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.PARLEY_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('exit', () => {
    delay.disable();
    const ms = (ns: number) => Math.round(ns / 1e6);
    writeFileSync(
      join(dir, `parley-${process.pid}.eventloop.json`),
      JSON.stringify({ p50Ms: ms(delay.percentile(50)), p99Ms: ms(delay.percentile(99)), maxMs: ms(delay.max) }),
    );
    // The in-process session answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `parley-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
