import { describe, expect, it } from 'vitest';
import { ACTION } from '../../ids.js';
import { ackOnly } from './ack-only.js';
import { buttonClick, fakeAck, fakeDeps, spiedClient } from '../../../../test/support/slack-payloads.js';

describe('ackOnly', () => {
  it.each([ACTION.reviewSelectCandidate, ACTION.openThread])(
    '%s is acknowledged once and nothing else happens',
    async (actionId) => {
      const { parley, screens } = fakeDeps();
      const slack = spiedClient();
      const ack = fakeAck();
      const args = { ...buttonClick(actionId), ack, client: slack.client };
      await ackOnly(args);
      expect(ack).toHaveBeenCalledTimes(1);
      for (const spy of [...Object.values(parley), ...Object.values(screens)]) expect(spy).not.toHaveBeenCalled();
      expect(slack.postEphemeral).not.toHaveBeenCalled();
    },
  );

  it('passes on a failed acknowledgement (Bolt’s error handler logs it)', async () => {
    const ack = fakeAck();
    ack.mockRejectedValueOnce(new Error('ack failed'));
    await expect(ackOnly({ ack })).rejects.toThrow('ack failed');
  });
});
