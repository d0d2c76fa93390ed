import { describe, expect, it, vi } from 'vitest';
import { fileShared } from './file-shared.js';
import {
  BOT_USER,
  CHANNEL,
  CONTEXT,
  DONE,
  envelope,
  fakeDeps,
  fileSharedEvent,
  holdNext,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

function share(event = fileSharedEvent('F0QUOTE001'), teamId: string = TEAM) {
  const { deps, parley } = fakeDeps();
  const args = { event, body: envelope(event, teamId), context: CONTEXT };
  return { run: () => fileShared(deps)(args), parley };
}

describe('fileShared', () => {
  it('hands the file to Parley, to be claimed if it looks like a quotation (the share names no thread)', async () => {
    const { run, parley } = share();
    await run();
    expect(parley.fileShared).toHaveBeenCalledWith({
      teamId: TEAM,
      fileId: 'F0QUOTE001',
      channelId: CHANNEL,
      userId: USER,
      userTeamId: null,
      threadTs: null,
      messageTs: null,
      requestedBy: null,
    });
  });

  it('works in the workspace the event was delivered to, not the top-level team of a Slack Connect channel', async () => {
    const { deps, parley } = fakeDeps();
    const event = fileSharedEvent('F0QUOTE001');
    const authorization = { enterprise_id: null, team_id: TEAM, user_id: BOT_USER, is_bot: true };
    const body = { ...envelope(event, 'T0HOSTORG1'), context_team_id: TEAM, authorizations: [authorization] };
    await fileShared(deps)({ event, body, context: CONTEXT });
    expect(parley.fileShared).toHaveBeenCalledWith(expect.objectContaining({ teamId: TEAM }));
  });

  it('is done (and Slack answered) only once the claim resolved', async () => {
    const { run, parley } = share();
    const release = holdNext(parley.fileShared);
    let finished = false;
    const running = run().then(() => (finished = true));
    await vi.waitFor(() => expect(parley.fileShared).toHaveBeenCalled());
    expect(finished).toBe(false);
    release(DONE);
    await running;
    expect(finished).toBe(true);
  });

  it('ignores Parley’s own uploads (the chart, the PO workbook)', async () => {
    const { run, parley } = share(fileSharedEvent('F0CHART001', BOT_USER));
    await run();
    expect(parley.fileShared).not.toHaveBeenCalled();
  });

  it('ignores an event without a team', async () => {
    const { run, parley } = share(fileSharedEvent('F0QUOTE001'), '');
    await run();
    expect(parley.fileShared).not.toHaveBeenCalled();
  });

  it('passes a failed claim on to Bolt (the error handler logs it; Slack retries the event)', async () => {
    const { run, parley } = share();
    parley.fileShared.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
  });
});
