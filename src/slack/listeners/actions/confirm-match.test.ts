import { describe, expect, it } from 'vitest';
import { ACTION, candidateOptionCodec, reviewConfirmCodec, reviewLineBlockId } from '../../ids.js';
import { confirmMatch } from './confirm-match.js';
import {
  buttonClick,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  IDS,
  pagerBlocks,
  spiedClient,
  TEAM,
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
});
