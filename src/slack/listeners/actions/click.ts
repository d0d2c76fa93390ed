// What every click listener shares: the arguments it reads, where the click happened, the button's value, and the one
// way a click runs — decode the value (a stale or forged one does nothing), call one service, acknowledge, and tell
// the person privately when they may not do it. The thread itself changes through the outbox, never from here.
import type { AllMiddlewareArgs, BlockAction, BlockElementAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ACTION, reviewPageCodec } from '../../ids.js';
import type { Outcome } from '../../deps.js';
import { log } from '../../../log.js';
import { ACK_DEADLINE_MS, settleWithin } from '../deadline.js';
import { tellFailure, tellUser } from '../respond.js';
import { interactionTeamId, interactionUserTeamId, isOutsider } from '../../team.js';

/** What someone from another organisation hears when they click Parley's buttons in a shared channel. */
export const OUTSIDER_CLICK = {
  error: 'not_allowed',
  message: 'Only people of the workspace that added Parley can act on its negotiations.',
} as const;

/** What a click listener reads of Bolt's arguments. */
export type ClickArgs = Pick<SlackActionMiddlewareArgs<BlockAction<BlockElementAction>>, 'ack' | 'body' | 'action'> &
  Pick<AllMiddlewareArgs, 'client'>;

/** Who clicked, and where: what the services take and where a refusal is shown. */
export interface ClickedAt {
  teamId: string;
  userId: string;
  /** Someone of another organisation (a Slack Connect channel's external member): they never act in Parley. */
  outsider: boolean;
  /** The person's own team, where the payload says (`user.team_id`): a connected supplier's, for its people. */
  userTeamId: string | null;
  channelId: string | null;
  threadTs: string | null;
}

export function clickedAt(body: BlockAction): ClickedAt {
  const teamId = interactionTeamId(body) ?? '';
  const userTeamId = interactionUserTeamId(body);
  return {
    teamId,
    userId: body.user.id,
    outsider: isOutsider(userTeamId, teamId),
    userTeamId,
    channelId: body.channel?.id ?? null,
    threadTs: body.message?.thread_ts ?? null,
  };
}

/** The clicked element's value (buttons, and the options of a select, carry one), unparsed. */
export function valueOf(action: BlockElementAction): string | undefined {
  return 'value' in action && typeof action.value === 'string' ? action.value : undefined;
}

/** The review page a message shows, read back from its pager buttons (1 when it has none). */
export function shownReviewPage(body: BlockAction): number {
  const blocks: unknown[] = Array.isArray(body.message?.blocks) ? body.message.blocks : [];
  for (const block of blocks) {
    const elements = (block as { elements?: { action_id?: string; value?: string }[] }).elements ?? [];
    for (const element of elements) {
      const page = reviewPageCodec.decode(element.value);
      if (!page) continue;
      if (element.action_id === ACTION.reviewPageNext) return page.pg - 1;
      if (element.action_id === ACTION.reviewPagePrev) return page.pg + 1;
    }
  }
  return 1;
}

/**
 * Someone of another organisation (Slack Connect) never acts in Parley: their click is acknowledged and they are told
 * privately, and nothing else happens. Null for anyone else, with nothing awaited (their service starts at once).
 */
export function refuseOutsider(args: ClickArgs, at: ClickedAt): Promise<void> | null {
  if (!at.outsider) return null;
  return (async () => {
    await args.ack();
    await tellUser(args.client, at, OUTSIDER_CLICK);
  })();
}

/**
 * A click listener from what it does: `run` decodes the value and calls the service, answering null when there is
 * nothing to do (a value that does not decode: stale or forged) or nothing to tell.
 *
 * The state change is committed before the ack: a click Slack saw acknowledged is never lost to a crash, and one
 * that was not is sent again by the person (every service is idempotent). Slow work runs after the ack. But Slack
 * shows the person an error when the ack takes over 3 s, so a call still running at `deadlineMs` (a slow database)
 * is acknowledged then and finishes on its own; the person then hears of a refusal or a failure privately.
 * Someone of another organisation is turned away (refuseOutsider) unless `outsiders` says the button is theirs.
 */
export function onClick(
  run: (args: ClickArgs, at: ClickedAt) => Promise<Outcome | null>,
  options: { deadlineMs?: number; outsiders?: 'their own part' } = {},
) {
  const { deadlineMs = ACK_DEADLINE_MS } = options;
  return async (args: ClickArgs): Promise<void> => {
    const at = clickedAt(args.body);
    // 'their own part': a connected supplier's button (Accept PO), whose service checks the person's own team.
    const refused = options.outsiders === 'their own part' ? null : refuseOutsider(args, at);
    if (refused) return refused;
    const running = run(args, at);
    const settled = await settleWithin(running, deadlineMs);
    await args.ack();
    if (settled.status === 'pending') {
      running
        .then(
          (result) => (result && !result.ok ? tellUser(args.client, at, result) : undefined),
          (error: unknown) => tellFailure(args.client, at, 'a click failed after its acknowledgement', error),
        )
        .catch((error: unknown) => log.error('could not tell a person how their click ended', { error }));
      return;
    }
    if (settled.status === 'rejected') {
      // Logged here with the reference the person is given; thrown on for Bolt's error handler all the same.
      await tellFailure(args.client, at, 'a click failed', settled.reason);
      throw settled.reason;
    }
    const result = settled.value;
    if (result && !result.ok) await tellUser(args.client, at, result);
  };
}
