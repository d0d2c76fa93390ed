// What Parley asks Slack about its workspace, against a real HTTP server answering as Slack does.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWorkspaceAdmin, tokenTeam } from './slack-directory.js';

let server: Server;
let apiUrl = '';
const answers: Record<string, unknown> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const method = (req.url ?? '').replace('/api/', '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answers[method] ?? { ok: false, error: 'unknown_method' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () => new WebClient('xoxb-test', { slackApiUrl: apiUrl, retryConfig: { retries: 0 } });

describe('tokenTeam', () => {
  it('names the team the bot token belongs to', async () => {
    answers['auth.test'] = { ok: true, team_id: 'T0NORTH001', team: 'Northwind Trail Co.', user_id: 'U0BOT' };
    expect(await tokenTeam(client())).toEqual({ id: 'T0NORTH001', name: 'Northwind Trail Co.' });
  });

  it('says which variable to fix when Slack refuses the token', async () => {
    answers['auth.test'] = { ok: false, error: 'invalid_auth' };
    await expect(tokenTeam(client())).rejects.toThrow(/Slack did not accept SLACK_BOT_TOKEN \(invalid_auth\)/);
  });
});

describe('isWorkspaceAdmin', () => {
  it('is true for admins and owners, false for members, deactivated admins and a failed lookup', async () => {
    const user = (fields: Record<string, boolean>) => ({
      ok: true,
      user: { id: 'U1', team_id: 'T0OURS0001', ...fields },
    });
    for (const [fields, expected] of [
      [{ is_admin: true }, true],
      [{ is_owner: true }, true],
      [{ is_primary_owner: true }, true],
      [{}, false],
      [{ is_admin: true, deleted: true }, false],
    ] as const) {
      answers['users.info'] = user(fields);
      expect(await isWorkspaceAdmin(client(), 'U1', 'T0OURS0001')).toBe(expected);
    }
    answers['users.info'] = { ok: false, error: 'missing_scope' };
    expect(await isWorkspaceAdmin(client(), 'U1', 'T0OURS0001')).toBe(false);
  });

  it('is false for an admin of another organisation, met in a Slack Connect channel', async () => {
    answers['users.info'] = { ok: true, user: { id: 'U0WEI00001', team_id: 'T0NINGBO01', is_admin: true } };
    expect(await isWorkspaceAdmin(client(), 'U0WEI00001', 'T0OURS0001')).toBe(false);
  });
});
