// Slack tokens at rest: the OAuth installation store keeps each workspace's bot token (and the installer's user token,
// inside Bolt's Installation object), and a database dump must not hand them out. Sealed with AES-256-GCM under a key
// from the environment (TOKEN_ENCRYPTION_KEY): a fresh 12-byte IV per value, the auth tag checked on reading, so a
// wrong key or an edited value fails loudly instead of yielding a garbled token.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Marks a sealed value; anything else in a token column is a row written before tokens were sealed. */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class TokenDecryptionError extends Error {
  override name = 'TokenDecryptionError';
}

export interface TokenCipher {
  seal(plaintext: string): string;
  /** The plaintext of a sealed value; throws TokenDecryptionError for a wrong key or a value that was altered. */
  open(sealed: string): string;
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** `keyBase64`: 32 bytes in base64 (env.ts checks the length before this runs). */
export function createTokenCipher(keyBase64: string): TokenCipher {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('TOKEN_ENCRYPTION_KEY must be 32 bytes in base64');
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (!isSealed(sealed)) throw new TokenDecryptionError('not a sealed token');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new TokenDecryptionError('sealed token is truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (error) {
        throw new TokenDecryptionError(
          'Cannot decrypt a stored Slack token: TOKEN_ENCRYPTION_KEY is not the key it was sealed with, or the row ' +
            'was altered',
          { cause: error },
        );
      }
    },
  };
}
