import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyEnvFile } from './env-file.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-env-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('applyEnvFile', () => {
  it('fills in what the shell left unset or empty, and never overrides the shell', () => {
    const path = join(dir, '.env');
    writeFileSync(
      path,
      ['# a comment', 'PORT=4000', 'SLACK_BOT_TOKEN=xoxb-from-file', 'LOG_LEVEL=debug', 'QUOTED="a b # c"', ''].join(
        '\n',
      ),
    );
    const target: Record<string, string | undefined> = { PORT: '5000', LOG_LEVEL: '' };
    const result = applyEnvFile(path, target);
    expect(result.found).toBe(true);
    expect(target).toEqual({ PORT: '5000', SLACK_BOT_TOKEN: 'xoxb-from-file', LOG_LEVEL: 'debug', QUOTED: 'a b # c' });
    expect(result.applied.sort()).toEqual(['LOG_LEVEL', 'QUOTED', 'SLACK_BOT_TOKEN']);
  });

  it('is fine without a file', () => {
    const target: Record<string, string | undefined> = {};
    expect(applyEnvFile(join(dir, 'missing.env'), target)).toEqual({ found: false, applied: [] });
    expect(target).toEqual({});
  });
});
