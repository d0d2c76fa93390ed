// Modal submissions, one named handler each. Bad input comes back as field errors in the modal (Slack's
// `response_action: 'errors'`), checked by pure parsers. Then the service commits the change and the modal closes (so
// a submission Slack saw acknowledged is never lost to a crash; one that was not is submitted again, and every
// service is idempotent); a refusal is told privately.
import type { App, ViewSubmitAction } from '@slack/bolt';
import { CALLBACK } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { approvePo } from './approve-po.js';
import { catalogUpload } from './catalog-upload.js';
import { connectSupplier } from './connect-supplier.js';
import { rejectPo } from './reject-po.js';
import { saveSettings } from './save-settings.js';
import { startNegotiation } from './start-negotiation.js';
import { submitOffer } from './submit-offer.js';
import { queryPo } from './query-po.js';
import { editDraft } from './edit-draft.js';

export function register(app: App, deps: SlackDeps): void {
  app.view<ViewSubmitAction>(CALLBACK.startModal, startNegotiation(deps));
  app.view<ViewSubmitAction>(CALLBACK.poModal, approvePo(deps));
  app.view<ViewSubmitAction>(CALLBACK.rejectModal, rejectPo(deps));
  app.view<ViewSubmitAction>(CALLBACK.settingsModal, saveSettings(deps));
  app.view<ViewSubmitAction>(CALLBACK.catalogModal, catalogUpload(deps));
  app.view<ViewSubmitAction>(CALLBACK.suppliersModal, connectSupplier(deps));
  app.view<ViewSubmitAction>(CALLBACK.offerModal, submitOffer(deps));
  app.view<ViewSubmitAction>(CALLBACK.poQueryModal, queryPo(deps));
  app.view<ViewSubmitAction>(CALLBACK.draftEditModal, editDraft(deps));
}
