// Parley against the stricter stand-in: installed with exactly the manifest's scopes, refused anything Slack refuses
// (a method without its scope, a post or file where the bot is not a member), and sent only the events Slack sends.
// The whole story must make no call real Slack would refuse, and a channel Parley was never invited to must leave no
// trace — no event reaches it, so it posts nothing there.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { callProblems } from '../../dev/slack-stand-in/call-log.js';
import { playStory } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { readManifest } from '../../dev/slack-stand-in/scopes.js';

const SAMPLE = new URL('../../data/samples/02-title-block-header-row-9.xlsx', import.meta.url);
const UNINVITED = { id: 'C0NOPARLEY', name: 'no-parley' };

const running = useSandboxedParley({
  afterStart: async ({ parley }) => {
    parley.sandbox.model.addChannel({
      ...UNINVITED,
      isPrivate: false,
      members: Object.values(PEOPLE).map((p) => p.id),
    });
  },
});

describe('Parley under Slack’s rules', () => {
  it('plays the whole story with only the manifest’s scopes and no call Slack would refuse', async () => {
    const bytes = await readFile(SAMPLE);
    await playStory(running.parley, { file: { name: 'quote.xlsx', bytes } });
    await running.parley.settle();
    const { model } = running.parley.sandbox;

    const refused = model.calls
      .filter((call) => !call.ok && call.fault === undefined)
      .map((call) => `${call.method}: ${call.error ?? call.status}`);
    expect(refused).toEqual([]);
    const problems = model.calls.flatMap((call) => callProblems(call.method, call.args));
    expect(problems).toEqual([]);
    // What Parley was installed with is what the manifest asks for, nothing more.
    const response = await fetch(`${running.parley.sandbox.apiUrl}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.parley.sandbox.botToken}` },
    });
    expect(response.headers.get('x-oauth-scopes')?.split(',')).toEqual(readManifest().scopes);
  });

  it('hears nothing from a channel it was never invited to, and posts nothing there', async () => {
    const { driver, model } = running.parley.sandbox;
    const before = model.calls.length;
    const bytes = await readFile(SAMPLE);
    const shared = await driver.shareFile(PEOPLE.buyer.id, UNINVITED.id, { name: 'quote.xlsx', bytes });
    expect(shared.message.notDelivered).toMatch(/not a member/);
    expect(shared.fileShared.notDelivered).toMatch(/not a member/);
    await running.parley.settle();
    expect(model.messages(UNINVITED.id).map((m) => m.user)).toEqual([PEOPLE.buyer.id]);
    expect(model.calls.slice(before).filter((call) => JSON.stringify(call.args).includes(UNINVITED.id))).toEqual([]);
    expect(await running.db.prisma.quotation.count({ where: { slackChannelId: UNINVITED.id } })).toBe(0);
    expect(model.messages(CHANNEL.id).length).toBeGreaterThan(0);
  });
});
