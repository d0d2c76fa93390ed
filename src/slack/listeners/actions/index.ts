// Button and select clicks in the thread and in modals. Each: decode the value (a stale or forged one is ignored),
// call one service, ack, and tell the person privately when they may not do it. The thread itself changes through
// the outbox, never from here.
import type { App, BlockAction, BlockElementAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import {
  ACTION,
  actionIdPattern,
  answerCodec,
  candidateOptionCodec,
  confirmAllCodec,
  curveballChoiceCodec,
  poIdCodec,
  poRefCodec,
  questionRefCodec,
  quotationRefCodec,
  reviewConfirmCodec,
  reviewItemCodec,
  reviewLineBlockId,
  reviewPageCodec,
  supplierChoiceCodec,
} from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { tellUser } from '../respond.js';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction<BlockElementAction>> & { client: WebClient };

function valueOf(action: BlockElementAction): string | undefined {
  return 'value' in action && typeof action.value === 'string' ? action.value : undefined;
}

function where(body: BlockAction) {
  return {
    teamId: body.team?.id ?? body.user.team_id ?? '',
    userId: body.user.id,
    channelId: body.channel?.id ?? null,
    threadTs: body.message?.thread_ts ?? null,
  };
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

export function register(app: App, deps: SlackDeps): void {
  const { parley, screens } = deps;

  /** Runs a click whose result is a ServiceResult: refusals go to the person, privately. */
  const act = (
    actionId: string | RegExp,
    run: (
      args: ActionArgs,
      at: ReturnType<typeof where>,
    ) => Promise<{ ok: boolean; error?: string; message?: string } | null>,
  ) =>
    app.action<BlockAction<BlockElementAction>>(actionId, async (args) => {
      const at = where(args.body);
      // The state change is committed before the ack: a click Slack saw acknowledged is never lost to a crash, and
      // one that was not is sent again by the person (every service is idempotent). Slow work runs after the ack.
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run(args, at);
      } finally {
        await args.ack();
      }
      if (result && !result.ok) {
        await tellUser(args.client, at, {
          error: result.error ?? 'refused',
          message: result.message ?? 'Not possible.',
        });
      }
    });

  // ── Review ──
  app.action(ACTION.reviewSelectCandidate, async ({ ack }) => ack()); // read when Confirm is clicked
  app.action(ACTION.openThread, async ({ ack }) => ack()); // a link button: Slack opens the URL

  act(ACTION.reviewConfirm, async ({ body, action }, at) => {
    const value = reviewConfirmCodec.decode(valueOf(action));
    if (!value) return null;
    const selected = body.state?.values?.[reviewLineBlockId(value.i)]?.[ACTION.reviewSelectCandidate];
    const option = candidateOptionCodec.decode(selected?.selected_option?.value);
    const productId = option?.p ?? value.p;
    return parley.reviewItem(at.teamId, {
      itemId: value.i,
      by: at.userId,
      decision: { kind: 'confirm', productId },
      page: shownReviewPage(body),
    });
  });

  act(ACTION.reviewNotInCatalog, async ({ body, action }, at) => {
    const value = reviewItemCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.reviewItem(at.teamId, {
      itemId: value.i,
      by: at.userId,
      decision: { kind: 'not_in_catalog' },
      page: shownReviewPage(body),
    });
  });

  act(ACTION.reviewConfirmAll, async ({ body, action }, at) => {
    const value = confirmAllCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.confirmAll(at.teamId, { quotationId: value.qt, by: at.userId, page: shownReviewPage(body) });
  });

  for (const pager of [ACTION.reviewPagePrev, ACTION.reviewPageNext]) {
    act(pager, async ({ action }, at) => {
      const value = reviewPageCodec.decode(valueOf(action));
      if (!value) return null;
      return parley.showReviewPage(at.teamId, { quotationId: value.qt, by: at.userId, page: value.pg });
    });
  }

  for (const choice of [ACTION.reviewSupplierUseExisting, ACTION.reviewSupplierCreate]) {
    act(choice, async ({ body, action }, at) => {
      const value = supplierChoiceCodec.decode(valueOf(action));
      if (!value) return null;
      return parley.chooseSupplier(at.teamId, {
        quotationId: value.qt,
        by: at.userId,
        choice: value.s ? { kind: 'existing', supplierId: value.s } : { kind: 'new' },
        page: shownReviewPage(body),
      });
    });
  }

  act(ACTION.reviewStartNegotiation, async ({ body, action, client }, at) => {
    const value = quotationRefCodec.decode(valueOf(action));
    if (!value) return null;
    const modal = await screens.startModal(at.teamId, value.qt, at.userId);
    if (!modal.ok) return modal;
    await client.views.open({ trigger_id: body.trigger_id, view: modal.value });
    return null;
  });

  // ── Questions ──
  act(actionIdPattern(ACTION.questionAnswer), async ({ action }, at) => {
    const value = answerCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.answerQuestion(at.teamId, {
      questionId: value.q,
      by: at.userId,
      choice: { kind: 'suggested', index: value.a },
    });
  });

  for (const [actionId, finish] of [
    [ACTION.earlyTerminationFinish, true],
    [ACTION.earlyTerminationContinue, false],
  ] as const) {
    act(actionId, async ({ action }, at) => {
      const value = questionRefCodec.decode(valueOf(action));
      if (!value) return null;
      return parley.answerQuestion(at.teamId, {
        questionId: value.q,
        by: at.userId,
        choice: { kind: 'early_termination', finish },
      });
    });
  }

  act(actionIdPattern(ACTION.curveballChoose), async ({ action }, at) => {
    const value = curveballChoiceCodec.decode(valueOf(action));
    if (!value) return null;
    return parley.chooseCurveballStrategy(at.teamId, { negotiationId: value.n, strategyId: value.s, by: at.userId });
  });

  // ── Decision and PO ──
  act(ACTION.decisionOpenPo, async ({ body, action, client }, at) => {
    const raw = valueOf(action);
    const purchaseOrderId = poIdCodec.decode(raw)?.po ?? poRefCodec.decode(raw)?.po;
    if (!purchaseOrderId) return null;
    const modal = await screens.poModal(at.teamId, purchaseOrderId, at.userId);
    if (!modal.ok) return modal;
    await client.views.open({ trigger_id: body.trigger_id, view: modal.value });
    return null;
  });

  act(ACTION.poReject, async ({ body, action, client }, at) => {
    const value = poRefCodec.decode(valueOf(action));
    if (!value) return null;
    const modal = await screens.rejectModal(at.teamId, value, at.userId);
    if (!modal.ok) return modal;
    await client.views.push({ trigger_id: body.trigger_id, view: modal.value });
    return null;
  });
}
