import { describe, expect, it, vi } from 'vitest';
import { ACTION, candidateOptionCodec, reviewConfirmCodec, reviewLineBlockId } from '../../ids.js';
import { confirmMatch } from './confirm-match.js';
import {
  buttonClick,
  CHANNEL,
  type ClickOptions,
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  pagerBlocks,
  refused,
  spiedClient,
  TEAM,
  THREAD_TS,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = reviewConfirmCodec.encode({ i: IDS.item, p: IDS.product });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.reviewConfirm, options), ack, client: slack.client };
  return { run: () => confirmMatch(deps)(args), parley, slack, ack };
}

describe('confirmMatch', () => {
  it('confirms the suggested product of the line the button names, on the page the message shows', async () => {
    const { run, parley, ack } = click({ value, blocks: pagerBlocks(3) });
    await run();
    expect(parley.reviewItem).toHaveBeenCalledWith(TEAM, {
      itemId: IDS.item,
      by: USER,
      decision: { kind: 'confirm', productId: IDS.product },
      page: 3,
    });
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('confirms the candidate picked in the line’s select rather than the suggestion', async () => {
    const picked = candidateOptionCodec.encode({ p: IDS.otherProduct });
    const state = {
      values: {
        [reviewLineBlockId(IDS.item)]: {
          [ACTION.reviewSelectCandidate]: {
            type: 'static_select',
            selected_option: { text: { type: 'plain_text' as const, text: 'SKU-2' }, value: picked },
          },
        },
      },
    };
    const { run, parley } = click({ value, state });
    await run();
    expect(parley.reviewItem).toHaveBeenCalledWith(
      TEAM,
      expect.objectContaining({ decision: { kind: 'confirm', productId: IDS.otherProduct }, page: 1 }),
    );
  });

  it('acknowledges once, only after the service resolved (the change is committed first)', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.reviewItem);
    const running = run();
    await vi.waitFor(() => expect(parley.reviewItem).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a refusal to the person privately, in the thread, and nothing else', async () => {
    const { run, parley, slack, ack } = click();
    parley.reviewItem.mockResolvedValueOnce(refused('Only <@U0OTHER001> and the approvers can review it.'));
    await run();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.postEphemeral).toHaveBeenCalledTimes(1);
    expect(slack.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: CHANNEL,
        user: USER,
        thread_ts: THREAD_TS,
        text: 'Only <@U0OTHER001> and the approvers can review it.',
      }),
    );
  });

  it.each([
    ['not JSON', 'confirm:123'],
    ['markup for an id', JSON.stringify({ i: '<!channel>', p: null })],
    ['another button’s value', JSON.stringify({ qt: IDS.quotation })],
    ['no value', undefined],
  ])('ignores a forged or stale value (%s): acknowledged, nothing called', async (_what, forged) => {
    const { run, parley, slack, ack } = click({ value: forged });
    await run();
    expect(parley.reviewItem).not.toHaveBeenCalled();
    expect(slack.postEphemeral).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });

  // A failed service still acknowledges the click (Slack shows nothing), so the person is told privately that it
  // failed, with the reference it was logged under; the error goes on to Bolt's error handler too.
  it('still acknowledges when the service throws, tells the person, and passes the error on', async () => {
    const { run, parley, slack, ack } = click();
    parley.reviewItem.mockRejectedValueOnce(new Error('database unavailable'));
    await expect(run()).rejects.toThrow('database unavailable');
    expect(ack).toHaveBeenCalledTimes(1);
    expect(slack.postEphemeral).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(slack.postEphemeral.mock.calls[0])).toMatch(/try again/i);
  });
});
