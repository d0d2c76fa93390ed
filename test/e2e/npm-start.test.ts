// The README's "Run it in Slack", as written: the Slack credentials go into `.env` next to package.json, `npm start`
// reads it (the shell's variables winning), sets the bot token's team up with nothing seeded and answers Slack. Run
// against the stand-in over HTTP, from a scratch directory that holds the `.env` and links to the repository's files
// (npm runs a script in the directory of the package.json it found), so the checkout's own `.env` is never touched.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackSandbox, startSlackSandbox } from '../../dev/slack-stand-in/index.js';
import { freePort } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { SLASH_COMMAND } from '../../src/slack/ids.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEAM = { id: 'T0NPMSTART1', name: 'Trailhead Goods' };
const BUYER = { id: 'U0BUYER001', name: 'bo', realName: 'Bo Buyer' };
const ADMIN = { id: 'U0ADMIN001', name: 'ada', realName: 'Ada Admin' };
const CHANNEL = { id: 'C0BUYING01', name: 'buying' };

let dir: string;
let sandbox: SlackSandbox;
let child: ChildProcess | undefined;
let exited: Promise<number | null> = Promise.resolve(null);
let stderr = '';
let port = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parley-npm-start-'));
  for (const name of ['package.json', 'node_modules', 'src', 'prisma', 'tsconfig.json']) {
    symlinkSync(join(ROOT, name), join(dir, name));
  }
  sandbox = await startSlackSandbox({
    teamId: TEAM.id,
    teamName: TEAM.name,
    users: [BUYER, ADMIN],
    channels: [{ id: CHANNEL.id, name: CHANNEL.name, members: [BUYER.id, ADMIN.id] }],
  });
  sandbox.model.addUser({ ...ADMIN, isBot: false, isAdmin: true });
  port = await freePort();
  // What the README has a person write into .env (PORT here is wrong on purpose: the shell's must win).
  writeFileSync(
    join(dir, '.env'),
    [
      '# Slack: from the app created from manifest.yml',
      `SLACK_BOT_TOKEN=${sandbox.botToken}`,
      `SLACK_SIGNING_SECRET=${sandbox.signingSecret}`,
      `SLACK_API_URL=${sandbox.apiUrl}`,
      'PORT=1',
      `PGLITE_DATA_DIR=${join(dir, 'pglite')}`,
      'JOBS_ENABLED=false',
      'LOG_LEVEL=warn',
      '',
    ].join('\n'),
  );
  sandbox.setEventsUrl(`http://127.0.0.1:${port}/slack/events`);

  // Only what a shell has, and PORT: nothing of this test process's environment leaks in.
  const started = spawn('npm', ['start'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  child = started;
  started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  exited = new Promise((resolve) => started.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (started.exitCode !== null) throw new Error(`npm start exited with ${started.exitCode}:\n${stderr}`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    if (health?.ok) break;
    if (Date.now() > deadline) throw new Error(`npm start did not answer on the shell's PORT:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}, 180_000);

afterAll(async () => {
  // The process group npm start made (npm, the shell, Parley): ours, started above.
  if (child?.pid && child.exitCode === null) {
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGKILL');
  }
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30_000);

describe('npm start with a .env, as the README says', () => {
  it('read the Slack credentials from .env and served on the shell’s PORT', async () => {
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { ok: boolean };
    expect(health.ok).toBe(true);
    // auth.test with the token from .env: Parley asked Slack whose token it is, to set that team up.
    expect(sandbox.model.calls.some((call) => call.method === 'auth.test' && call.ok)).toBe(true);
  });

  it('answers /parley help in the new workspace', async () => {
    const response = await sandbox.driver.slashCommand(BUYER.id, CHANNEL.id, SLASH_COMMAND, 'help');
    expect(response.status).toBe(200);
    const help = sandbox.model.ephemerals(BUYER.id).map((e) => e.text);
    expect(help.join(' ')).toMatch(/Parley commands/);
  });

  it('publishes the App Home for the workspace admin who opens it first (its first approver)', async () => {
    await sandbox.driver.openHome(ADMIN.id);
    const home = await sandbox.waitFor(() => sandbox.model.home(ADMIN.id), { what: 'the App Home', timeoutMs: 20_000 });
    expect(home.type).toBe('home');
    // Ada is an approver now: `/parley settings` opens the modal for her, not a refusal.
    await sandbox.driver.slashCommand(ADMIN.id, CHANNEL.id, SLASH_COMMAND, 'settings');
    const modal = await sandbox.waitFor(
      () => sandbox.model.openViews(ADMIN.id).find((view) => view.view.callback_id === 'parley_settings'),
      { what: 'the settings modal', timeoutMs: 20_000 },
    );
    expect(JSON.stringify(modal.view)).toContain(TEAM.name);
  });
});
