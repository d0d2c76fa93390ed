// Structured logs: one JSON object per line on stderr, so stdout stays free for the CLIs' output.
import { env } from './config/env.js';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40 } as const;
type Level = keyof typeof LEVELS;

function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < LEVELS[env.LOG_LEVEL]) return;
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, message, ...fields };
  if (fields.error instanceof Error) {
    entry.error = { name: fields.error.name, message: fields.error.message, stack: fields.error.stack };
  }
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
