import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.js';

describe('loadEnv', () => {
  it('runs on defaults alone: embedded database, offline agents, seed models', () => {
    const env = loadEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PGLITE_DATA_DIR).toBe('data/pglite');
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.ANTHROPIC_FAST_MODEL).toBe('claude-haiku-4-5-20251001');
    expect(env.ANTHROPIC_REASONING_MODEL).toBe('claude-sonnet-4-6');
    expect(env.MAX_UPLOAD_MB).toBe(15);
    expect(env.APPROVER_SLACK_IDS).toEqual([]);
  });

  it('coerces numbers and lists, and treats empty values as unset', () => {
    const env = loadEnv({ PORT: '8080', APPROVER_SLACK_IDS: 'U123, U456 ,', DATABASE_URL: '', LLM_MAX_RETRIES: '0' });
    expect(env.PORT).toBe(8080);
    expect(env.APPROVER_SLACK_IDS).toEqual(['U123', 'U456']);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.LLM_MAX_RETRIES).toBe(0);
  });

  it('takes a 32-byte base64 token key', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadEnv({ TOKEN_ENCRYPTION_KEY: key }).TOKEN_ENCRYPTION_KEY).toBe(key);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ SLACK_BOT_TOKEN: 'xoxp-user-token' }, 'SLACK_BOT_TOKEN'],
    [{ APPROVER_SLACK_IDS: 'U1,not an id' }, 'APPROVER_SLACK_IDS'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ MAX_SHEET_ROWS: '-5' }, 'MAX_SHEET_ROWS'],
    [{ TOKEN_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') }, 'TOKEN_ENCRYPTION_KEY'],
    [{ TOKEN_ENCRYPTION_KEY: 'not base64 at all, but long enough to be 32 bytes!!' }, 'TOKEN_ENCRYPTION_KEY'],
  ])('fails fast naming the bad variable: %o', (source, name) => {
    expect(() => loadEnv(source)).toThrow(EnvError);
    expect(() => loadEnv(source)).toThrow(new RegExp(`\\b${name}\\b`));
  });
});
