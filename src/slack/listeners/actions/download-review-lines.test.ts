import { describe, expect, it } from 'vitest';
import { ACTION, downloadLinesCodec } from '../../ids.js';
import { downloadReviewLines } from './download-review-lines.js';
import {
  buttonClick,
  type ClickOptions,
  fakeAck,
  fakeDeps,
  IDS,
  spiedClient,
  TEAM,
  USER,
} from '../../../../test/support/slack-payloads.js';

const value = downloadLinesCodec.encode({ qt: IDS.quotation });

function click(options: ClickOptions = { value }) {
  const { deps, parley } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck();
  const args = { ...buttonClick(ACTION.reviewDownloadLines, options), ack, client: slack.client };
  return { run: () => downloadReviewLines(deps)(args), parley, slack, ack };
}

describe('downloadReviewLines', () => {
  it('asks for the workbook of the quotation the button names, as the person who clicked', async () => {
    const { run, parley, ack } = click();
    await run();
    expect(parley.downloadReviewLines).toHaveBeenCalledWith(TEAM, { quotationId: IDS.quotation, by: USER });
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
