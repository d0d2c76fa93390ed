// Modal submissions: start the negotiation, approve the PO, reject it with a reason, save the settings. Bad input
// comes back as field errors in the modal (Slack's `response_action: 'errors'`), checked by pure parsers. Then the
// service commits the change and the modal closes (so a submission Slack saw acknowledged is never lost to a crash;
// one that was not is submitted again, and every service is idempotent); a refusal is told privately.
import type { App, SlackViewAction, SlackViewMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { CALLBACK, poRefCodec, quotationRefCodec } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { parseRejectModal, parseSettingsModal, parseStartModal } from '../../views/index.js';
import { tellUser } from '../respond.js';

type ViewArgs = SlackViewMiddlewareArgs<SlackViewAction> & { client: WebClient };

function who(body: SlackViewAction) {
  return { teamId: body.team?.id ?? body.user.team_id ?? '', userId: body.user.id };
}

export function register(app: App, deps: SlackDeps): void {
  const { parley, screens } = deps;

  app.view(CALLBACK.startModal, async ({ ack, body, view, client }: ViewArgs) => {
    const ref = quotationRefCodec.decode(view.private_metadata);
    const form = parseStartModal(view.state.values);
    if (!ref) return void (await ack());
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = who(body);
    const result = await parley
      .beginNegotiation(teamId, { quotationId: ref.qt, by: userId, request: form.value })
      .finally(() => ack());
    if (!result.ok) {
      const channelId = await screens.quotationChannel(teamId, ref.qt);
      await tellUser(client, { channelId, userId }, result);
    }
  });

  app.view(CALLBACK.poModal, async ({ ack, body, view, client }: ViewArgs) => {
    const ref = poRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const { teamId, userId } = who(body);
    const result = await parley
      .approvePo(teamId, { purchaseOrderId: ref.po, by: userId, expectedVersion: ref.v })
      .finally(() => ack());
    if (!result.ok) {
      const channelId = await screens.purchaseOrderChannel(teamId, ref.po);
      await tellUser(client, { channelId, userId }, result);
    }
  });

  app.view(CALLBACK.rejectModal, async ({ ack, body, view, client }: ViewArgs) => {
    const ref = poRefCodec.decode(view.private_metadata);
    if (!ref) return void (await ack());
    const form = parseRejectModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = who(body);
    const result = await parley
      .rejectPo(teamId, { purchaseOrderId: ref.po, by: userId, reason: form.value.reason, expectedVersion: ref.v })
      .finally(() => ack({ response_action: 'clear' }));
    if (!result.ok) {
      const channelId = await screens.purchaseOrderChannel(teamId, ref.po);
      await tellUser(client, { channelId, userId }, result);
    }
  });

  app.view(CALLBACK.settingsModal, async ({ ack, body, view, client }: ViewArgs) => {
    const form = parseSettingsModal(view.state.values);
    if (!form.ok) return void (await ack({ response_action: 'errors', errors: form.errors }));
    const { teamId, userId } = who(body);
    const result = await screens.saveSettings(teamId, userId, form.value).finally(() => ack());
    if (!result.ok) await tellUser(client, { channelId: null, userId }, result);
  });
}
