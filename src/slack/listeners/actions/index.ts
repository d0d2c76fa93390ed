// Button and select clicks in the thread and in modals, one named handler each (see click.ts for how a click runs).
import type { App, BlockAction, BlockElementAction } from '@slack/bolt';
import { ACTION, actionIdPattern } from '../../ids.js';
import type { SlackDeps } from '../../deps.js';
import { acceptPremium } from './accept-premium.js';
import { rateRecommendation } from './rate-recommendation.js';
import { ackOnly } from './ack-only.js';
import { answerQuestion } from './answer-question.js';
import { acceptSupplierPo, openPoQueryModal } from './answer-supplier-po.js';
import { answerWhichQuestion } from './answer-which-question.js';
import { catalogCancel } from './catalog-cancel.js';
import { catalogImport } from './catalog-import.js';
import { catalogOpen } from './catalog-open.js';
import { suppliersOpen } from './suppliers-open.js';
import { connectQuotingSupplier } from './connect-quoting-supplier.js';
import { submitOfferFile, submitWordsOffer } from './submit-offer-file.js';
import { chooseCurveball } from './choose-curveball.js';
import { chooseSupplier } from './choose-supplier.js';
import type { ClickArgs } from './click.js';
import { confirmAll } from './confirm-all.js';
import { downloadReviewLines } from './download-review-lines.js';
import { confirmMatch } from './confirm-match.js';
import { decideDraft, openDraftEditModal } from './decide-draft.js';
import { earlyTermination } from './early-termination.js';
import { negotiateFile } from './negotiate-file.js';
import { openOfferModal } from './open-offer-modal.js';
import { openPoModal } from './open-po-modal.js';
import { openRejectModal } from './open-reject-modal.js';
import { openStartModal } from './open-start-modal.js';
import { pickComparisonColumn } from './pick-comparison-column.js';
import { reviewNotInCatalog } from './review-not-in-catalog.js';
import { reviewPage } from './review-page.js';

export function register(app: App, deps: SlackDeps): void {
  const on = (actionId: string | RegExp, handler: (args: ClickArgs) => Promise<void>) =>
    app.action<BlockAction<BlockElementAction>>(actionId, handler);

  // Review
  on(ACTION.reviewSelectCandidate, ackOnly);
  on(ACTION.openThread, ackOnly);
  on(ACTION.reviewConfirm, confirmMatch(deps));
  on(ACTION.reviewNotInCatalog, reviewNotInCatalog(deps));
  on(ACTION.reviewConfirmAll, confirmAll(deps));
  on(ACTION.reviewDownloadLines, downloadReviewLines(deps));
  on(ACTION.reviewPagePrev, reviewPage(deps));
  on(ACTION.reviewPageNext, reviewPage(deps));
  on(ACTION.reviewSupplierUseExisting, chooseSupplier(deps));
  on(ACTION.reviewSupplierCreate, chooseSupplier(deps));
  on(actionIdPattern(ACTION.comparisonPickColumn), pickComparisonColumn(deps));
  on(ACTION.reviewStartNegotiation, openStartModal(deps));
  on(ACTION.reviewConnectSupplier, connectQuotingSupplier(deps));
  on(ACTION.offerFileSubmit, submitOfferFile(deps));
  on(ACTION.wordsOfferSubmit, submitWordsOffer(deps));
  // `/parley negotiate`'s list of the channel's recent spreadsheets
  on(ACTION.negotiateFile, negotiateFile(deps));
  // Questions and curveballs
  on(actionIdPattern(ACTION.questionAnswer), answerQuestion(deps));
  on(ACTION.earlyTerminationFinish, earlyTermination(deps));
  on(ACTION.earlyTerminationContinue, earlyTermination(deps));
  on(actionIdPattern(ACTION.whichQuestion), answerWhichQuestion(deps));
  on(ACTION.whichQuestionNone, answerWhichQuestion(deps));
  on(actionIdPattern(ACTION.curveballChoose), chooseCurveball(deps));
  // Connected suppliers: the buyer's Send / Skip on Alex's drafts; the supplier's own Submit offer
  on(ACTION.draftSend, decideDraft(deps));
  on(ACTION.draftSkip, decideDraft(deps));
  on(ACTION.draftEdit, openDraftEditModal(deps));
  on(ACTION.draftExtend, decideDraft(deps));
  on(ACTION.draftCloseRound, decideDraft(deps));
  on(ACTION.offerOpen, openOfferModal(deps));
  // The approved PO in the supplier's own channel: its Accept, its Query
  on(ACTION.poSupplierAccept, acceptSupplierPo(deps));
  on(ACTION.poSupplierQuery, openPoQueryModal(deps));
  // Decision and PO
  on(ACTION.decisionOpenPo, openPoModal(deps));
  on(ACTION.decisionAcceptPremium, acceptPremium(deps));
  on(ACTION.decisionFeedback, rateRecommendation(deps));
  on(ACTION.poReject, openRejectModal(deps));
  // The brand's catalog: the App Home's Import catalog, the preview's buttons
  on(ACTION.catalogOpen, catalogOpen(deps));
  on(ACTION.suppliersOpen, suppliersOpen(deps));
  on(ACTION.catalogMerge, catalogImport(deps));
  on(ACTION.catalogReplace, catalogImport(deps));
  on(ACTION.catalogCancel, catalogCancel(deps));
}
