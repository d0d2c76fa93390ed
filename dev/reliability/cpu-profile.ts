// Preloaded (`--import`) into a Parley process to profile its CPU: `--cpu-prof` is refused in NODE_OPTIONS, and the
// benchmarks start `src/main.ts` themselves. Profiles from the start and writes a .cpuprofile (open it in Chrome's
// DevTools) into PARLEY_CPU_PROFILE_DIR when the process exits normally (SIGTERM → process.exit).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.PARLEY_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  process.on('exit', () => {
    // The in-process session answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `parley-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
