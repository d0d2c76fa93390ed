import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCipher, isSealed, TokenDecryptionError } from './token-crypto.js';

const KEY = randomBytes(32).toString('base64');
const TOKEN = 'xoxb-1234567890-abcdefghijkl';

describe('token cipher', () => {
  it('round-trips, with a fresh IV each time and nothing of the token left readable', () => {
    const cipher = createTokenCipher(KEY);
    const first = cipher.seal(TOKEN);
    const second = cipher.seal(TOKEN);
    expect(isSealed(first)).toBe(true);
    expect(first).not.toBe(second);
    expect(first).not.toContain('xoxb');
    expect(first).not.toContain('abcdefghijkl');
    expect(cipher.open(first)).toBe(TOKEN);
    expect(cipher.open(second)).toBe(TOKEN);
  });

  it('fails clearly under another key', () => {
    const sealed = createTokenCipher(KEY).seal(TOKEN);
    const other = createTokenCipher(randomBytes(32).toString('base64'));
    expect(() => other.open(sealed)).toThrow(TokenDecryptionError);
    expect(() => other.open(sealed)).toThrow(/TOKEN_ENCRYPTION_KEY/);
  });

  it('detects a value that was altered or truncated', () => {
    const cipher = createTokenCipher(KEY);
    const sealed = cipher.seal(TOKEN);
    const raw = Buffer.from(sealed.slice('enc:v1:'.length), 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 0x01;
    expect(() => cipher.open(`enc:v1:${raw.toString('base64')}`)).toThrow(TokenDecryptionError);
    expect(() => cipher.open('enc:v1:AAAA')).toThrow(TokenDecryptionError);
    expect(() => cipher.open(TOKEN)).toThrow(TokenDecryptionError);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createTokenCipher(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
