import { describe, expect, it } from 'vitest';
import type { ViewResponseAction } from '@slack/bolt';
import { BLOCK, CALLBACK, quotationRefCodec } from '../../ids.js';
import { startNegotiation } from './start-negotiation.js';
import {
  fakeAck,
  fakeDeps,
  IDS,
  spiedClient,
  startModalValues,
  type StateValues,
  TEAM,
  USER,
  viewSubmission,
} from '../../../../test/support/slack-payloads.js';

const metadata = quotationRefCodec.encode({ qt: IDS.quotation });
const valid = startModalValues({
  mode: 'cost',
  rounds: '3',
  budget: '2',
  target: '40000',
  walkAway: '45000',
  maxLeadTime: '30',
  sourcing: 'single',
  invited: ['SUP-003'],
});

function submit(options: { privateMetadata?: string; values?: StateValues } = {}) {
  const { deps, parley, screens } = fakeDeps();
  const slack = spiedClient();
  const ack = fakeAck<ViewResponseAction>();
  const submitted = viewSubmission(CALLBACK.startModal, { privateMetadata: metadata, values: valid, ...options });
  const args = { ...submitted, ack, client: slack.client };
  return { run: () => startNegotiation(deps)(args), parley, screens, slack, ack };
}

describe('startNegotiation', () => {
  it('begins the negotiation of the quotation in private_metadata with what the modal asked', async () => {
    const { run, parley, ack } = submit();
    await run();
    expect(parley.beginNegotiation).toHaveBeenCalledWith(TEAM, {
      quotationId: IDS.quotation,
      by: USER,
      request: {
        mode: 'cost',
        maxRounds: 3,
        questionBudget: 2,
        targetTotal: 40000,
        walkAwayTotal: 45000,
        requiredBy: null,
        maxLeadTimeDays: 30,
        sourcing: 'single',
        invitedSuppliers: ['SUP-003'],
        notes: null,
      },
    });
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith();
  });

  it('answers bad input with field errors in the modal, and starts nothing', async () => {
    const { run, parley, ack } = submit({ values: startModalValues({ mode: 'cost', rounds: '3', target: '-5' }) });
    await run();
    expect(parley.beginNegotiation).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: { [BLOCK.startTargetTotal]: expect.any(String) },
    });
  });

  it('answers a mandate that makes no sense with field errors: a walk-away below the target, a past date', async () => {
    const { run, parley, ack } = submit({
      values: startModalValues({
        mode: 'cost',
        rounds: '3',
        target: '50000',
        walkAway: '40000',
        requiredBy: '2020-01-01',
        maxLeadTime: '0',
      }),
    });
    await run();
    expect(parley.beginNegotiation).not.toHaveBeenCalled();
    expect(ack).toHaveBeenCalledWith({
      response_action: 'errors',
      errors: {
        [BLOCK.startWalkAwayTotal]: 'The walk-away total must be at least the target total.',
        [BLOCK.startRequiredBy]: 'Pick a date after today.',
        [BLOCK.startMaxLeadTime]: expect.any(String),
      },
    });
  });
});
