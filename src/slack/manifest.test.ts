import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { BOT_SCOPES } from './app.js';
import { CALLBACK, SLASH_COMMAND } from './ids.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('manifest.yml', () => {
  const manifest: unknown = parse(read('../../manifest.yml'));

  it('is a valid v1 app manifest by Slack’s published JSON schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(JSON.parse(read('./specs/manifest.schema.json')));
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // The schema is strict: a key Slack does not know is an error, so the check above means something.
    expect(validate({ ...(manifest as object), settings: { socket_mode: true } })).toBe(false);
  });

  it('asks for what the product needs: file events, thread replies, persona names, the shortcut and /parley', () => {
    expect(manifest).toMatchObject({
      features: {
        shortcuts: [{ type: 'message', callback_id: 'negotiate_quote' }],
        slash_commands: [{ command: '/parley' }],
      },
      oauth_config: {
        scopes: { bot: expect.arrayContaining(['chat:write', 'files:read', 'channels:history']) },
      },
      settings: { event_subscriptions: { bot_events: expect.arrayContaining(['file_shared', 'message.channels']) } },
    });
  });

  it('asks for exactly the scopes the code uses, and names the ids the listeners register', () => {
    const shape = z.object({
      features: z.object({
        shortcuts: z.array(z.object({ callback_id: z.string() })),
        slash_commands: z.array(z.object({ command: z.string() })),
      }),
      oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
    });
    const parsed = shape.parse(manifest);
    expect([...parsed.oauth_config.scopes.bot].sort()).toEqual([...BOT_SCOPES].sort());
    expect(parsed.features.shortcuts.map((s) => s.callback_id)).toEqual([CALLBACK.negotiateShortcut]);
    expect(parsed.features.slash_commands.map((c) => c.command)).toEqual([SLASH_COMMAND]);
  });
});
