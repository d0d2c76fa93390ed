// `npm start` reads `.env` (as the README's "Run it in Slack" says): its variables fill in what the shell left unset,
// so `PORT=4000 npm start` still wins over the file. Only src/main.ts calls this, before src/config/env.ts parses the
// environment; tests and the demo pass their environment explicitly and never read a `.env`.
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

export interface EnvFileResult {
  /** The file did not exist: not an error, every variable is optional. */
  found: boolean;
  /** Names the file set (the shell had them unset or empty). */
  applied: string[];
}

/**
 * Copies the file's variables into `target` where `target` has none. Node's own `process.loadEnvFile` keeps the
 * shell's values on Node 20 too, but that precedence is not documented for every release; doing it here keeps the
 * rule one line long and the same on every Node version. An empty shell value counts as unset, as env.ts reads it.
 */
export function applyEnvFile(path: string, target: Record<string, string | undefined>): EnvFileResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { found: false, applied: [] };
    throw error;
  }
  const applied: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (value === undefined || (target[name] !== undefined && target[name] !== '')) continue;
    target[name] = value;
    applied.push(name);
  }
  return { found: true, applied };
}
