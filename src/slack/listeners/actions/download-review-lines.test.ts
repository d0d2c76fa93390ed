import { describe, expect, it, vi } from 'vitest';
import { ACTION, downloadLinesCodec } from '../../ids.js';
import { downloadReviewLines } from './download-review-lines.js';
import {
  buttonClick,
  type ClickOptions,
  DONE,
  fakeAck,
  fakeDeps,
  holdNext,
  IDS,
  refused,
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

  it('acknowledges only after the service resolved', async () => {
    const { run, parley, ack } = click();
    const release = holdNext(parley.downloadReviewLines);
    const running = run();
    await vi.waitFor(() => expect(parley.downloadReviewLines).toHaveBeenCalled());
    expect(ack).not.toHaveBeenCalled();
    release(DONE);
    await running;
    expect(ack).toHaveBeenCalledTimes(1);
  });

  it('tells a person who may not review, privately', async () => {
    const { run, parley, slack } = click();
    parley.downloadReviewLines.mockResolvedValueOnce(refused());
    await run();
    expect(slack.postEphemeral).toHaveBeenCalledTimes(1);
  });

  it('does nothing with a forged value', async () => {
    const { run, parley, ack } = click({ value: '{"qt":"<!channel>"}' });
    await run();
    expect(parley.downloadReviewLines).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
  });
});
