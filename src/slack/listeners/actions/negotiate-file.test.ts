import { describe, expect, it } from 'vitest';
import { ACTION, fileRefCodec } from '../../ids.js';
import { negotiateFile } from './negotiate-file.js';
import { OUTSIDER_CLICK } from './click.js';
import {
  buttonClick,
  CHANNEL,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  spiedClient,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = fileRefCodec.encode({ f: 'F0QUOTE001' });

function click(options: ClickOptions = { value }, userTeam?: string) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const clicked = buttonClick(ACTION.negotiateFile, options);
  if (userTeam) clicked.body.user.team_id = userTeam;
  const args = { ...clicked, ack, client: slack.client };
  return { run: () => negotiateFile(deps)(args), parley, slack, ack };
}

describe('negotiateFile', () => {
  it('reads the file the button names, in the channel clicked in, asked for by the person clicking', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.fileShared).toHaveBeenCalledWith({
      teamId: TEAM,
      fileId: 'F0QUOTE001',
      channelId: CHANNEL,
      userId: null,
      userTeamId: null,
      threadTs: null,
      messageTs: null,
      requestedBy: { userId: USER, teamId: TEAM },
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('refuses someone of another organisation before asking Parley anything', async () => {
    const { run, parley, slack, ack } = click({ value }, 'T0SUPPLIER');
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(parley.fileShared).not.toHaveBeenCalled();
    expect(slack.postEphemeral).toHaveBeenCalledWith(expect.objectContaining({ text: OUTSIDER_CLICK.message }));
  });
});
