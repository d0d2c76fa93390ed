// The contract every click and every modal submission keeps, run over each listener the index files register: the
// table is checked against the registrations, so a listener added there without a row fails here. The contract:
// acknowledged once, and only once the service answered, so that a click Slack saw acknowledged is never lost to a
// crash (a click that opens a modal is acknowledged first: nothing is saved, and its trigger expires); a refusal told
// to the person where they are looking; a forged or stale value changing nothing; a failure told to the person, logged
// under the reference they are given or passed on to Bolt's error handler. A row says only what is its handler's own:
// the id it answers, a valid payload and forged values for its codec, the one service it calls, and where its refusals
// and failures show. What a handler passes to its service, and what it posts, is tested next to it.
import { App, LogLevel, type ViewResponseAction } from '@slack/bolt';
import { afterEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { log } from '../../log.js';
import type { Refusal, SlackDeps } from '../deps.js';
import {
  ACTION,
  answerCodec,
  BLOCK,
  CALLBACK,
  catalogImportCodec,
  comparisonColumnCodec,
  confirmAllCodec,
  curveballChoiceCodec,
  downloadLinesCodec,
  draftRefCodec,
  feedbackCodec,
  fileRefCodec,
  indexedActionId,
  poIdCodec,
  poRefCodec,
  premiumChoiceCodec,
  questionRefCodec,
  quotationRefCodec,
  threadReplyRefCodec,
  reviewConfirmCodec,
  reviewItemCodec,
  reviewPageCodec,
  settingsVersionCodec,
  supplierChoiceCodec,
  supplierPoRefCodec,
  whichQuestionCodec,
} from '../ids.js';
import {
  buildCatalogFailedModal,
  buildCatalogPreviewModal,
  buildLoadingModal,
  offerButtonCodec,
  offerModalRefCodec,
  offerPriceBlockId,
} from '../views/index.js';
import { OUTSIDER_CLICK } from './actions/click.js';
import { register as registerClicks } from './actions/index.js';
import { register as registerSubmissions } from './views/index.js';
import { SETTINGS_FORM_OUTDATED } from './views/save-settings.js';
import {
  buttonClick,
  CATALOG_PREVIEW,
  CATALOG_REPORT,
  catalogModalValues,
  suppliersModalValues,
  catalogPreviewClick,
  CHANNEL,
  CONTEXT,
  DONE,
  fakeAck,
  fakeDeps,
  fakeRespond,
  holdNext,
  IDS,
  MODAL,
  OPENED_VIEW,
  refused,
  rejectModalValues,
  settingsModalValues,
  spiedClient,
  startModalValues,
  type StateValues,
  THREAD_TS,
  TEAM,
  TRIGGER_ID,
  USER,
  viewSubmission,
} from '../../../test/support/slack-payloads.js';

// ───────────────────────────── What the index files register ─────────────────────────────

/** What Bolt routes on: an exact id, or a pattern (the indexed buttons: `question_answer:<n>`). */
type Route = string | RegExp;

/**
 * The listeners the index files register with `deps`, read off a Bolt App whose action() and view() only record, and
 * the rest of what Bolt hands a listener with the request (its logger, `next`, a `respond`), which these do not use.
 */
function registered(deps: SlackDeps) {
  const app = new App({
    token: 'xoxb-contract-test',
    signingSecret: 'contract-test',
    tokenVerificationEnabled: false,
    convoStore: false,
    logLevel: LogLevel.ERROR,
  });
  const actions = vi.spyOn(app, 'action').mockImplementation(() => {});
  const views = vi.spyOn(app, 'view').mockImplementation(() => {});
  registerClicks(app, deps);
  registerSubmissions(app, deps);
  return {
    clicks: actions.mock.calls.map(([id, ...listeners]) => ({ route: routeOf(id), listeners })),
    submissions: views.mock.calls.map(([id, ...listeners]) => ({ route: routeOf(id), listeners })),
    bolt: { context: CONTEXT, logger: app.logger, next: async () => {}, respond: fakeRespond() },
  };
}

/** Bolt's types name the constraints overload; the index files register ids and patterns. */
function routeOf(id: unknown): Route {
  if (typeof id === 'string' || id instanceof RegExp) return id;
  throw new Error(`registered on constraints rather than an id (${JSON.stringify(id)}): teach the contract test them`);
}

const routes = (route: Route, id: string) => (typeof route === 'string' ? route === id : route.test(id));

/** The one listener Bolt would run for `id`: a second registration matching it would run too, which is a bug. */
function listenerFor<L>(registrations: { route: Route; listeners: L[] }[], id: string): L {
  const matching = registrations.filter((registration) => routes(registration.route, id));
  const [only] = matching;
  if (!only || matching.length > 1) throw new Error(`${matching.length} registrations route ${id}`);
  const [listener] = only.listeners;
  if (!listener || only.listeners.length > 1) throw new Error(`${id} is registered with ${only.listeners.length}`);
  return listener;
}

// ───────────────────────────── The fakes, and the service a row calls ─────────────────────────────

type Refused = { ok: false } & Refusal;

/** Every refusal of the contract: a permission refusal (a lock where a modal shows it). */
const REFUSAL = refused();
const FAILURE = 'database unavailable';

afterEach(() => vi.restoreAllMocks());

function fakes() {
  const { deps, parley, screens } = fakeDeps();
  return { deps, parley, screens, slack: spiedClient() };
}
type Fakes = ReturnType<typeof fakes>;

/** The spy of a service, as the contract drives it. */
interface Answering<T> {
  mock: { calls: unknown[][] };
  mockReturnValueOnce(answer: Promise<T>): unknown;
  mockResolvedValueOnce(answer: Refused): unknown;
  mockRejectedValueOnce(error: Error): unknown;
}

interface Service {
  spy: Answering<unknown>;
  /** Holds the next answer; the function returned gives it: the answer of a call that succeeded. */
  hold: () => () => void;
  refuse: () => void;
  fail: () => void;
}

/** The one service a listener calls, and `done`: what it answers when the call succeeded. */
function answering<T>(spy: Answering<T>, done: T): Service {
  return {
    spy,
    hold: () => {
      const release = holdNext(spy);
      return () => release(done);
    },
    refuse: () => void spy.mockResolvedValueOnce(REFUSAL),
    fail: () => void spy.mockRejectedValueOnce(new Error(FAILURE)),
  };
}

/** No service asked, nothing sent to Slack. */
function expectNothingDone(f: Fakes) {
  for (const spy of [...Object.values(f.parley), ...Object.values(f.screens)]) expect(spy).not.toHaveBeenCalled();
  const { client: _client, ...sent } = f.slack;
  for (const spy of Object.values(sent)) expect(spy).not.toHaveBeenCalled();
}

// ───────────────────────────── Clicks ─────────────────────────────

interface ClickBase {
  /** The action id clicked: one the index registers, or one its pattern routes. */
  action: string;
  /** A value its codec reads (none: the element carries none). */
  value?: string;
  /**
   * Where the click happens: in a message of the thread (the default); inside a modal or the App Home, which have no
   * channel; or on the catalog preview, a modal the click then changes.
   */
  on?: 'modal' | 'catalog preview';
  /** Values its codec must refuse — stale, forged, another button's — or why it reads none. */
  forged: (string | undefined)[] | { none: string };
  /**
   * A connected supplier's button (Submit offer, Accept PO, Query), pressed by people of the supplier's organisation:
   * not turned away here; the service or screen is asked with the person's own team — `asks` is that call's arguments.
   * Every other click refuses someone of another organisation.
   */
  outsiders?: { asks: unknown[] };
}

/**
 * Slack only wants the element acknowledged: a review line's product select (read when its Confirm is clicked) and a
 * link button (Slack opens the URL). No service, so nothing to wait for, refuse or fail but the ack itself.
 */
interface AckOnlyRow extends ClickBase {
  acks: 'at once';
  /** It reads no value, so every value must leave it doing nothing: the row lists some. */
  forged: (string | undefined)[];
}

interface ServiceRow extends ClickBase {
  service: (f: Fakes) => Service;
  /**
   * 'after the service': the change is committed before the ack (click.ts). 'before the read', opening a modal: a
   * click's trigger_id expires 3 s after the click and nothing is saved, so the ack and a loading view come first and
   * the read fills the view (modal.ts); `opens` says how the loading view goes up.
   */
  acks: 'after the service' | 'before the read';
  opens?: 'open' | 'push';
  /**
   * Where a refusal is told: privately, in the thread clicked in; in the modal the click opened, in the loading
   * view's place; or, on the catalog preview (a modal has no channel for an ephemeral), in the catalog modal.
   */
  refusal: 'privately' | 'in the modal opened' | 'in the catalog modal';
  /**
   * Where a failure is told: like a refusal, and thrown on for Bolt's error handler; on the catalog preview, the
   * preview again under "did not go through" with the reference it was logged under (catalog-view.ts), not thrown.
   */
  failure: 'privately, thrown on' | 'in the modal opened, thrown on' | 'the preview again';
}

type ClickRow = AckOnlyRow | ServiceRow;

/** A click that commits a change through click.ts's onClick. */
const COMMITS = { acks: 'after the service', refusal: 'privately', failure: 'privately, thrown on' } as const;
/** A click that opens a modal through modal.ts's onModalClick. */
const OPENS_MODAL = {
  acks: 'before the read',
  opens: 'open',
  refusal: 'in the modal opened',
  failure: 'in the modal opened, thrown on',
} as const;
const ON_CATALOG_PREVIEW = {
  on: 'catalog preview',
  acks: 'after the service',
  refusal: 'in the catalog modal',
  failure: 'the preview again',
} as const;

const NO_VALUE = undefined;
const NOT_JSON = 'not json';
const LOADED = { ok: true, value: MODAL } as const;
const IMPORT_CLAIMED = {
  ok: true,
  value: { fileName: CATALOG_PREVIEW.fileName, finished: Promise.resolve(CATALOG_REPORT) },
} as const;

const REVIEW_PAGE = reviewPageCodec.encode({ qt: IDS.quotation, pg: 3 });
const REVIEW_PAGE_FORGED = [
  JSON.stringify({ qt: IDS.quotation, pg: 0 }),
  JSON.stringify({ qt: IDS.quotation, pg: 1e9 }),
  JSON.stringify({ pg: 2 }),
  NO_VALUE,
];
const SUPPLIER_FORGED = [JSON.stringify({ qt: IDS.quotation, s: 'x y' }), NO_VALUE];
const QUESTION_REF = questionRefCodec.encode({ q: IDS.question });
const QUESTION_REF_FORGED = ['{"q":""}', NO_VALUE];
const REPLY = 'clthreadreply0000000000001';
const WHICH_QUESTION_FORGED = [
  NOT_JSON,
  JSON.stringify({ r: '<!channel>', q: IDS.question }),
  JSON.stringify({ r: REPLY }),
  JSON.stringify({ r: REPLY, q: null, by: 'U0OTHER001' }),
  NO_VALUE,
];
const DRAFT = draftRefCodec.encode({ n: IDS.negotiation, q: 7 });
const DRAFT_FORGED = [JSON.stringify({ n: IDS.negotiation }), JSON.stringify({ n: IDS.negotiation, q: 0 }), NO_VALUE];
const OFFER_REF = { n: IDS.negotiation, s: IDS.supplier, r: 2 };
const SUPPLIER_PO_REF = { po: IDS.purchaseOrder, s: IDS.supplier };
const SUPPLIER_PO_FORGED = [
  JSON.stringify({ po: IDS.purchaseOrder }),
  JSON.stringify({ ...SUPPLIER_PO_REF, s: '<!here>' }),
  NO_VALUE,
];
const CATALOG_IMPORT = catalogImportCodec.encode({ ci: CATALOG_PREVIEW.importId });
const CATALOG_IMPORT_FORGED = ['{"ci":"<x>"}', NO_VALUE];

const CLICKS: ClickRow[] = [
  // Review
  { action: ACTION.reviewSelectCandidate, acks: 'at once', forged: [NO_VALUE, NOT_JSON, '<!channel>'] },
  { action: ACTION.openThread, acks: 'at once', forged: [NO_VALUE, NOT_JSON, '<!channel>'] },
  {
    action: ACTION.reviewConfirm,
    value: reviewConfirmCodec.encode({ i: IDS.item, p: IDS.product }),
    forged: [
      'confirm:123',
      JSON.stringify({ i: '<!channel>', p: null }),
      JSON.stringify({ qt: IDS.quotation }),
      NO_VALUE,
    ],
    service: (f) => answering(f.parley.reviewItem, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewNotInCatalog,
    value: reviewItemCodec.encode({ i: IDS.item }),
    forged: ['{"i":', JSON.stringify({ i: IDS.item, p: IDS.product }), NO_VALUE],
    service: (f) => answering(f.parley.reviewItem, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewConfirmAll,
    value: confirmAllCodec.encode({ qt: IDS.quotation }),
    forged: [JSON.stringify({ qt: '../../etc' }), NO_VALUE],
    service: (f) => answering(f.parley.confirmAll, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewDownloadLines,
    value: downloadLinesCodec.encode({ qt: IDS.quotation }),
    forged: ['{"qt":"<!channel>"}', NO_VALUE],
    service: (f) => answering(f.parley.downloadReviewLines, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewPagePrev,
    value: REVIEW_PAGE,
    forged: REVIEW_PAGE_FORGED,
    service: (f) => answering(f.parley.showReviewPage, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewPageNext,
    value: REVIEW_PAGE,
    forged: REVIEW_PAGE_FORGED,
    service: (f) => answering(f.parley.showReviewPage, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewSupplierUseExisting,
    value: supplierChoiceCodec.encode({ qt: IDS.quotation, s: IDS.supplier }),
    forged: SUPPLIER_FORGED,
    service: (f) => answering(f.parley.chooseSupplier, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewSupplierCreate,
    value: supplierChoiceCodec.encode({ qt: IDS.quotation }),
    forged: SUPPLIER_FORGED,
    service: (f) => answering(f.parley.chooseSupplier, DONE),
    ...COMMITS,
  },
  {
    action: indexedActionId(ACTION.comparisonPickColumn, 1),
    value: comparisonColumnCodec.encode({ qt: IDS.quotation, c: 1 }),
    forged: [JSON.stringify({ qt: IDS.quotation, c: -1 }), NO_VALUE],
    service: (f) => answering(f.parley.chooseComparisonColumn, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.reviewStartNegotiation,
    value: quotationRefCodec.encode({ qt: IDS.quotation }),
    forged: [JSON.stringify({ qt: IDS.quotation, extra: 1 }), NO_VALUE],
    service: (f) => answering(f.screens.startModal, LOADED),
    ...OPENS_MODAL,
  },
  {
    action: ACTION.reviewConnectSupplier,
    value: quotationRefCodec.encode({ qt: IDS.quotation }),
    forged: [JSON.stringify({ qt: '<!channel>' }), NO_VALUE],
    service: (f) => answering(f.screens.suppliersModal, LOADED),
    ...OPENS_MODAL,
  },
  {
    action: ACTION.negotiateFile,
    value: fileRefCodec.encode({ f: 'F0QUOTE001' }),
    forged: ['{"f":"<!channel>"}', NO_VALUE],
    service: (f) => answering(f.parley.fileShared, DONE),
    ...COMMITS,
  },
  // Questions and curveballs
  {
    action: indexedActionId(ACTION.questionAnswer, 2),
    value: answerCodec.encode({ q: IDS.question, a: 2 }),
    forged: [JSON.stringify({ q: IDS.question, a: 10 }), JSON.stringify({ q: IDS.question, a: -1 }), NO_VALUE],
    service: (f) => answering(f.parley.answerQuestion, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.earlyTerminationFinish,
    value: QUESTION_REF,
    forged: QUESTION_REF_FORGED,
    service: (f) => answering(f.parley.answerQuestion, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.earlyTerminationContinue,
    value: QUESTION_REF,
    forged: QUESTION_REF_FORGED,
    service: (f) => answering(f.parley.answerQuestion, DONE),
    ...COMMITS,
  },
  {
    action: indexedActionId(ACTION.whichQuestion, 1),
    value: whichQuestionCodec.encode({ r: REPLY, q: IDS.question }),
    forged: WHICH_QUESTION_FORGED,
    service: (f) => answering(f.parley.answerWhichQuestion, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.whichQuestionNone,
    value: whichQuestionCodec.encode({ r: REPLY, q: null }),
    forged: WHICH_QUESTION_FORGED,
    service: (f) => answering(f.parley.answerWhichQuestion, DONE),
    ...COMMITS,
  },
  // Connected suppliers
  {
    action: ACTION.draftSend,
    value: DRAFT,
    forged: DRAFT_FORGED,
    service: (f) => answering(f.parley.decideDraft, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.draftSkip,
    value: DRAFT,
    forged: DRAFT_FORGED,
    service: (f) => answering(f.parley.decideDraft, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.draftEdit,
    value: DRAFT,
    forged: DRAFT_FORGED,
    service: (f) => answering(f.screens.draftEditModal, LOADED),
    ...OPENS_MODAL,
  },
  {
    action: ACTION.draftExtend,
    value: DRAFT,
    forged: DRAFT_FORGED,
    service: (f) => answering(f.parley.decideDraft, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.draftCloseRound,
    value: DRAFT,
    forged: DRAFT_FORGED,
    service: (f) => answering(f.parley.decideDraft, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.offerOpen,
    value: offerButtonCodec.encode(OFFER_REF),
    forged: [JSON.stringify({ n: IDS.negotiation, s: IDS.supplier }), JSON.stringify({ ...OFFER_REF, r: 0 }), NO_VALUE],
    service: (f) => answering(f.screens.offerModal, LOADED),
    ...OPENS_MODAL,
    outsiders: { asks: [TEAM, OFFER_REF, 'T0OUTSIDER'] },
  },
  {
    action: ACTION.offerFileSubmit,
    value: quotationRefCodec.encode({ qt: IDS.quotation }),
    forged: [JSON.stringify({ qt: IDS.quotation, r: 1 }), NO_VALUE],
    service: (f) => answering(f.parley.submitOfferFile, DONE),
    ...COMMITS,
    outsiders: { asks: [TEAM, { quotationId: IDS.quotation, by: USER, byTeamId: 'T0OUTSIDER' }] },
  },
  {
    action: ACTION.wordsOfferSubmit,
    value: threadReplyRefCodec.encode({ tr: IDS.quotation }),
    forged: [JSON.stringify({ tr: '<@U0ALL>' }), NO_VALUE],
    service: (f) => answering(f.parley.submitWordsOffer, DONE),
    ...COMMITS,
    outsiders: { asks: [TEAM, { threadReplyId: IDS.quotation, by: USER, byTeamId: 'T0OUTSIDER' }] },
  },
  {
    action: ACTION.poSupplierAccept,
    value: supplierPoRefCodec.encode(SUPPLIER_PO_REF),
    forged: SUPPLIER_PO_FORGED,
    service: (f) => answering(f.parley.acceptSupplierPo, DONE),
    ...COMMITS,
    outsiders: {
      asks: [TEAM, { purchaseOrderId: IDS.purchaseOrder, supplierId: IDS.supplier, by: USER, byTeamId: 'T0OUTSIDER' }],
    },
  },
  {
    action: ACTION.poSupplierQuery,
    value: supplierPoRefCodec.encode(SUPPLIER_PO_REF),
    forged: SUPPLIER_PO_FORGED,
    service: (f) => answering(f.screens.poQueryModal, LOADED),
    ...OPENS_MODAL,
    outsiders: { asks: [TEAM, { purchaseOrderId: IDS.purchaseOrder, supplierId: IDS.supplier }, 'T0OUTSIDER'] },
  },
  {
    action: indexedActionId(ACTION.curveballChoose, 1),
    value: curveballChoiceCodec.encode({ n: IDS.negotiation, s: IDS.strategy }),
    forged: [JSON.stringify({ n: IDS.negotiation }), NO_VALUE],
    service: (f) => answering(f.parley.chooseCurveballStrategy, DONE),
    ...COMMITS,
  },
  // Decision and PO
  {
    action: ACTION.decisionOpenPo,
    value: poIdCodec.encode({ po: IDS.purchaseOrder }),
    forged: [JSON.stringify({ po: 'PO-2026-0001; drop' }), NO_VALUE],
    service: (f) => answering(f.screens.poModal, LOADED),
    ...OPENS_MODAL,
  },
  {
    action: ACTION.decisionAcceptPremium,
    value: premiumChoiceCodec.encode({ n: IDS.negotiation, p: IDS.premium }),
    forged: [JSON.stringify({ n: IDS.negotiation }), JSON.stringify({ n: IDS.negotiation, p: '<!here>' }), NO_VALUE],
    service: (f) => answering(f.parley.acceptPremium, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.decisionFeedback,
    value: feedbackCodec.encode({ n: IDS.negotiation, r: 'negative' }),
    forged: ['not-a-rating', NO_VALUE],
    service: (f) => answering(f.parley.rateRecommendation, DONE),
    ...COMMITS,
  },
  {
    action: ACTION.poReject,
    value: poRefCodec.encode({ po: IDS.purchaseOrder, v: 3 }),
    forged: [JSON.stringify({ po: IDS.purchaseOrder }), NO_VALUE],
    service: (f) => answering(f.screens.rejectModal, LOADED),
    ...OPENS_MODAL,
    // Reject… is a button of the PO modal: the reject modal goes on top of it, and the click has no channel.
    on: 'modal',
    opens: 'push',
  },
  // The brand's catalog
  {
    action: ACTION.catalogOpen,
    // The App Home's button: no channel.
    on: 'modal',
    forged: { none: 'the App Home’s Import catalog opens the catalog modal of whoever clicks it' },
    service: (f) => answering(f.screens.catalogModal, LOADED),
    ...OPENS_MODAL,
  },
  {
    action: ACTION.suppliersOpen,
    on: 'modal',
    forged: { none: 'the App Home’s Suppliers opens the suppliers modal of whoever clicks it' },
    service: (f) => answering(f.screens.suppliersModal, LOADED),
    ...OPENS_MODAL,
  },
  {
    action: ACTION.catalogMerge,
    value: CATALOG_IMPORT,
    forged: CATALOG_IMPORT_FORGED,
    service: (f) => answering(f.parley.importCatalog, IMPORT_CLAIMED),
    ...ON_CATALOG_PREVIEW,
  },
  {
    action: ACTION.catalogReplace,
    value: CATALOG_IMPORT,
    forged: CATALOG_IMPORT_FORGED,
    service: (f) => answering(f.parley.importCatalog, IMPORT_CLAIMED),
    ...ON_CATALOG_PREVIEW,
  },
  {
    action: ACTION.catalogCancel,
    value: CATALOG_IMPORT,
    forged: CATALOG_IMPORT_FORGED,
    service: (f) => answering(f.parley.cancelCatalogImport, DONE),
    ...ON_CATALOG_PREVIEW,
  },
];

/**
 * The row's listener, as registered, clicked with its valid value, or with `forged.value` (which may be none); by
 * someone of another organisation (a Slack Connect channel's external member) with `outsider`.
 */
function click(row: ClickRow, forged?: { value: string | undefined }, outsider = false) {
  const value = forged ? forged.value : row.value;
  const f = fakes();
  const ack = fakeAck();
  const { clicks, bolt } = registered(f.deps);
  const listener = listenerFor(clicks, row.action);
  const payload =
    row.on === 'catalog preview'
      ? catalogPreviewClick(row.action, { value })
      : buttonClick(row.action, { value, channel: row.on === 'modal' ? null : undefined });
  if (outsider) payload.body.user.team_id = 'T0OUTSIDER';
  const args = { ...bolt, ...payload, payload: payload.action, ack, client: f.slack.client };
  return { ...f, ack, payload, run: () => listener(args) };
}

/** What the catalog modal was last updated to, checked to be the clicked modal. */
function catalogModalShown(clicked: ReturnType<typeof click>) {
  const update = clicked.slack.viewsUpdate.mock.calls.at(-1)?.[0];
  expect(update).toMatchObject({ view_id: clicked.payload.body.view?.id });
  return update?.view;
}

/** The loading view the click opened, replaced by what it shows. */
function modalOpenedShown(clicked: ReturnType<typeof click>) {
  expect(clicked.slack.viewsUpdate).toHaveBeenCalledTimes(1);
  const update = clicked.slack.viewsUpdate.mock.calls[0]?.[0];
  expect(update).toMatchObject({ view_id: OPENED_VIEW.id, hash: OPENED_VIEW.hash });
  return update?.view;
}

/** Logged, with the error, under the reference the person was shown in `shown`. */
function expectLoggedUnderItsRef(logged: MockInstance<typeof log.error>, shown: string) {
  const ref = /ref `([0-9a-f]{8})`/.exec(shown)?.[1];
  expect(ref, shown).toBeDefined();
  expect(logged).toHaveBeenCalledWith(
    expect.any(String),
    expect.objectContaining({ ref, error: expect.objectContaining({ message: FAILURE }) }),
  );
}

function itIgnoresForgedValues(row: ClickRow, values: (string | undefined)[]) {
  for (const value of values) {
    it(`ignores a forged or stale value: acknowledged, nothing asked or sent (${value ?? 'no value'})`, async () => {
      const clicked = click(row, { value });
      await clicked.run();
      expect(clicked.ack).toHaveBeenCalledTimes(1);
      expectNothingDone(clicked);
    });
  }
}

describe.each(CLICKS)('click $action', (row) => {
  if (row.acks === 'at once') {
    it('acknowledges once, at once, and does nothing else: there is no service to wait for', async () => {
      const clicked = click(row);
      await clicked.run();
      expect(clicked.ack).toHaveBeenCalledTimes(1);
      expectNothingDone(clicked);
    });
    itIgnoresForgedValues(row, row.forged);
    it('passes on a failed acknowledgement, the only thing that can fail (Bolt’s error handler logs it)', async () => {
      const clicked = click(row);
      clicked.ack.mockRejectedValueOnce(new Error('ack failed'));
      await expect(clicked.run()).rejects.toThrow('ack failed');
      expectNothingDone(clicked);
    });
    return;
  }

  const { outsiders } = row;
  if (outsiders) {
    it('lets someone of another organisation act on their own part: asked with their own team', async () => {
      const clicked = click(row, undefined, true);
      await clicked.run();
      expect(clicked.ack).toHaveBeenCalledTimes(1);
      expect(row.service(clicked).spy.mock.calls).toEqual([outsiders.asks]);
      expect(clicked.slack.postEphemeral).not.toHaveBeenCalled();
    });
  } else
    it('refuses someone of another organisation: acknowledged, nothing asked, told privately where there is a channel', async () => {
      const clicked = click(row, undefined, true);
      await clicked.run();
      expect(clicked.ack).toHaveBeenCalledTimes(1);
      for (const spy of [...Object.values(clicked.parley), ...Object.values(clicked.screens)]) {
        expect(spy).not.toHaveBeenCalled();
      }
      const { postEphemeral, ...others } = (({ client: _client, ...sent }) => sent)(clicked.slack);
      for (const spy of Object.values(others)) expect(spy).not.toHaveBeenCalled();
      if (clicked.payload.body.channel) {
        expect(postEphemeral).toHaveBeenCalledWith(
          expect.objectContaining({ text: expect.stringContaining(OUTSIDER_CLICK.message) }),
        );
      } else {
        expect(postEphemeral).not.toHaveBeenCalled();
      }
    });

  if (row.acks === 'after the service') {
    it('acknowledges once, only after the service resolved', async () => {
      const clicked = click(row);
      const service = row.service(clicked);
      const release = service.hold();
      const running = clicked.run();
      await vi.waitFor(() => expect(service.spy).toHaveBeenCalledTimes(1));
      expect(clicked.ack).not.toHaveBeenCalled();
      release();
      await running;
      expect(clicked.ack).toHaveBeenCalledTimes(1);
      expect(clicked.slack.postEphemeral).not.toHaveBeenCalled();
    });
  } else {
    it(`acknowledges first and ${row.opens ?? 'open'}s a loading view before the modal is read (the trigger expires)`, async () => {
      const clicked = click(row);
      const service = row.service(clicked);
      const release = service.hold();
      const { viewsOpen, viewsPush, viewsUpdate } = clicked.slack;
      const [opened, other] = row.opens === 'push' ? [viewsPush, viewsOpen] : [viewsOpen, viewsPush];
      const running = clicked.run();
      await vi.waitFor(() => expect(service.spy).toHaveBeenCalledTimes(1));
      expect(clicked.ack).toHaveBeenCalledTimes(1);
      expect(opened).toHaveBeenCalledTimes(1);
      expect(opened).toHaveBeenCalledWith({ trigger_id: TRIGGER_ID, view: buildLoadingModal('Parley') });
      expect(clicked.ack.mock.invocationCallOrder[0]).toBeLessThan(opened.mock.invocationCallOrder[0] ?? 0);
      expect(other).not.toHaveBeenCalled();
      expect(viewsUpdate).not.toHaveBeenCalled();
      release();
      await running;
      expect(clicked.ack).toHaveBeenCalledTimes(1);
      expect(viewsUpdate).toHaveBeenCalledTimes(1);
      expect(viewsUpdate).toHaveBeenCalledWith({ view_id: OPENED_VIEW.id, hash: OPENED_VIEW.hash, view: MODAL });
    });
  }

  it(`tells a refusal ${row.refusal}`, async () => {
    const clicked = click(row);
    row.service(clicked).refuse();
    await clicked.run();
    expect(clicked.ack).toHaveBeenCalledTimes(1);
    if (row.refusal === 'privately') {
      expect(clicked.slack.postEphemeral).toHaveBeenCalledTimes(1);
      expect(clicked.slack.postEphemeral).toHaveBeenCalledWith(
        expect.objectContaining({ channel: CHANNEL, user: USER, thread_ts: THREAD_TS, text: REFUSAL.message }),
      );
      return;
    }
    expect(clicked.slack.postEphemeral).not.toHaveBeenCalled();
    const shown = row.refusal === 'in the modal opened' ? modalOpenedShown(clicked) : catalogModalShown(clicked);
    expect(JSON.stringify(shown)).toContain(`:lock: ${REFUSAL.message}`);
  });

  if (Array.isArray(row.forged)) itIgnoresForgedValues(row, row.forged);
  else {
    const { service } = row;
    it(`ignores a forged or stale value: it reads none (${row.forged.none})`, async () => {
      const plain = click(row);
      const forged = click(row, { value: '{"qt":"<!channel>"}' });
      await plain.run();
      await forged.run();
      const [called, calledForged] = [service(plain).spy, service(forged).spy];
      expect(called).toHaveBeenCalledTimes(1);
      expect(calledForged.mock.calls).toEqual(called.mock.calls);
      expect(forged.ack).toHaveBeenCalledTimes(1);
    });
  }

  it(`still acknowledges when the service throws, and tells the person: ${row.failure}`, async () => {
    const logged = vi.spyOn(log, 'error').mockImplementation(() => {});
    const clicked = click(row);
    row.service(clicked).fail();
    if (row.failure === 'the preview again') await expect(clicked.run()).resolves.toBeUndefined();
    else await expect(clicked.run()).rejects.toThrow(FAILURE);
    expect(clicked.ack).toHaveBeenCalledTimes(1);
    if (row.failure === 'privately, thrown on') {
      expect(clicked.slack.postEphemeral).toHaveBeenCalledTimes(1);
      const told = clicked.slack.postEphemeral.mock.calls[0]?.[0];
      expect(told).toMatchObject({
        channel: CHANNEL,
        user: USER,
        thread_ts: THREAD_TS,
        text: expect.stringMatching(/logged \(ref `[0-9a-f]{8}`\)\. Please try again/),
      });
      return expectLoggedUnderItsRef(logged, JSON.stringify(told));
    }
    expect(clicked.slack.postEphemeral).not.toHaveBeenCalled();
    if (row.failure === 'in the modal opened, thrown on') {
      return void expect(JSON.stringify(modalOpenedShown(clicked))).toMatch(/could not load this.*please try again/);
    }
    const shown = catalogModalShown(clicked);
    const warning = JSON.stringify(shown?.blocks[0]);
    expect(warning).toMatch(/did not go through \(ref `[0-9a-f]{8}`\).*Please click again/);
    expectLoggedUnderItsRef(logged, warning);
    // Under it, the preview itself: its buttons to click again.
    expect(shown?.blocks.slice(1)).toEqual(buildCatalogPreviewModal(CATALOG_PREVIEW).blocks);
  });
});

// ───────────────────────────── Modal submissions ─────────────────────────────

interface SubmissionRow {
  callback: string;
  metadata?: string;
  values?: StateValues;
  /**
   * private_metadata its codec must refuse, and the answer then (closing the modal when nothing is to be done); or
   * why it reads none.
   */
  forged: { metadata: string[]; answer: [] | [ViewResponseAction] } | { none: string };
  service: (f: Fakes) => Service;
  /**
   * How the modal stays open saying why: a field error under an input (Slack shows errors only there), a notice pushed
   * over a modal without one, or the catalog modal's next view in its place.
   */
  refusal: { field: string } | 'a notice pushed over it' | 'in its place';
  /**
   * 'kept open like a refusal': within the time, a failure keeps the modal open saying so with its reference
   * (submission.ts), logged there. The others close or replace the modal and throw on for Bolt's error handler.
   */
  failure: 'kept open like a refusal' | 'closes, thrown on' | 'a failed view in its place, thrown on';
}

const PO_REF = poRefCodec.encode({ po: IDS.purchaseOrder, v: 4 });
const CLOSES: [] = [];

const SUBMISSIONS: SubmissionRow[] = [
  {
    callback: CALLBACK.startModal,
    metadata: quotationRefCodec.encode({ qt: IDS.quotation }),
    values: startModalValues({ mode: 'cost', rounds: '3', target: '40000', walkAway: '45000' }),
    forged: { metadata: [JSON.stringify({ qt: '<!channel>' }), ''], answer: CLOSES },
    service: (f) => answering(f.parley.beginNegotiation, DONE),
    refusal: 'a notice pushed over it',
    failure: 'kept open like a refusal',
  },
  {
    callback: CALLBACK.poModal,
    metadata: PO_REF,
    forged: {
      metadata: [JSON.stringify({ po: IDS.purchaseOrder }), JSON.stringify({ po: IDS.purchaseOrder, v: -1 }), ''],
      answer: CLOSES,
    },
    service: (f) => answering(f.parley.approvePo, DONE),
    // The PO modal has no input to hang a field error on.
    refusal: 'a notice pushed over it',
    failure: 'kept open like a refusal',
  },
  {
    callback: CALLBACK.rejectModal,
    metadata: PO_REF,
    values: rejectModalValues('Lead time too long'),
    forged: { metadata: ['{"po":"x","v":"4"}', ''], answer: CLOSES },
    service: (f) => answering(f.parley.rejectPo, DONE),
    refusal: { field: BLOCK.rejectReason },
    failure: 'kept open like a refusal',
  },
  {
    callback: CALLBACK.settingsModal,
    metadata: settingsVersionCodec.encode({ sv: 4 }),
    values: settingsModalValues({ approvers: ['U0APPROVE1'], amount: '25000' }),
    // A modal without the version it showed (opened before versions, or tampered with) could save over a newer save:
    // it is refused in the modal, which says to open the settings again.
    forged: {
      metadata: ['', '{"sv":-1}', NOT_JSON],
      answer: [{ response_action: 'errors', errors: { [BLOCK.settingsBrandName]: SETTINGS_FORM_OUTDATED } }],
    },
    service: (f) => answering(f.screens.saveSettings, DONE),
    refusal: { field: BLOCK.settingsBrandName },
    // A modal has no channel to tell a failure in: it closes (the settings show what was saved when reopened).
    failure: 'closes, thrown on',
  },
  {
    callback: CALLBACK.catalogModal,
    values: catalogModalValues([{ id: 'F0CATALOG1', name: 'catalog.csv' }]),
    forged: { none: 'the catalog modal carries no private_metadata: it reads the uploaded file, for whoever submits' },
    service: (f) => answering(f.parley.previewCatalog, { ok: true, value: CATALOG_PREVIEW }),
    // Nothing is changed by the submission: its answer is the next view, the preview or why there is none.
    refusal: 'in its place',
    failure: 'a failed view in its place, thrown on',
  },
  {
    callback: CALLBACK.offerModal,
    metadata: offerModalRefCodec.encode(OFFER_REF),
    forged: { metadata: [JSON.stringify({ n: IDS.negotiation, s: IDS.supplier }), ''], answer: CLOSES },
    service: (f) => answering(f.parley.submitSupplierOffer, DONE),
    // Its submitter is of another organisation: the form itself says what went wrong, under its first line.
    refusal: { field: offerPriceBlockId(0) },
    failure: 'kept open like a refusal',
  },
  {
    callback: CALLBACK.poQueryModal,
    metadata: supplierPoRefCodec.encode(SUPPLIER_PO_REF),
    values: {
      [BLOCK.poQueryText]: { [ACTION.poQueryText]: { type: 'plain_text_input', value: 'Can line 2 ship later?' } },
    },
    forged: { metadata: [JSON.stringify({ po: IDS.purchaseOrder }), ''], answer: CLOSES },
    service: (f) => answering(f.parley.querySupplierPo, DONE),
    // Its submitter is of another organisation: the form itself says what went wrong, under the question.
    refusal: { field: BLOCK.poQueryText },
    failure: 'kept open like a refusal',
  },
  {
    callback: CALLBACK.draftEditModal,
    metadata: DRAFT,
    values: {
      [BLOCK.draftText]: { [ACTION.draftText]: { type: 'plain_text_input', value: 'Thanks, Wei: 5% on the shells?' } },
    },
    forged: { metadata: [JSON.stringify({ n: IDS.negotiation }), ''], answer: CLOSES },
    service: (f) => answering(f.parley.decideDraft, DONE),
    refusal: { field: BLOCK.draftText },
    failure: 'kept open like a refusal',
  },
  {
    callback: CALLBACK.suppliersModal,
    values: suppliersModalValues(null, 'Ningbo Everbright', 'C0NINGBO01'),
    forged: { none: 'the suppliers modal carries no private_metadata: the service checks who submits it' },
    service: (f) => answering(f.parley.connectSupplier, DONE),
    // Why a channel is not fit (Parley not in it, not shared, shared with several) is shown under the channel.
    refusal: { field: BLOCK.supplierChannel },
    failure: 'kept open like a refusal',
  },
];

/** The row's listener, as registered, submitted with `metadata` (the row's valid one unless given). */
function submit(row: SubmissionRow, privateMetadata: string | undefined = row.metadata) {
  const f = fakes();
  const ack = fakeAck<ViewResponseAction>();
  const { submissions, bolt } = registered(f.deps);
  const listener = listenerFor(submissions, row.callback);
  const payload = viewSubmission(row.callback, { privateMetadata, values: row.values });
  const args = { ...bolt, ...payload, payload: payload.view, ack, client: f.slack.client };
  return { ...f, ack, run: () => listener(args) };
}

/** The modal stays open saying `said`, where the row shows a refusal. */
function expectKeptOpenSaying(row: SubmissionRow, submitted: ReturnType<typeof submit>, said: string | RegExp) {
  expect(submitted.ack).toHaveBeenCalledTimes(1);
  expect(submitted.slack.postEphemeral).not.toHaveBeenCalled();
  const answer = submitted.ack.mock.calls[0]?.[0];
  if (typeof row.refusal === 'object') {
    const error = typeof said === 'string' ? said : expect.stringMatching(said);
    expect(answer).toEqual({ response_action: 'errors', errors: { [row.refusal.field]: error } });
    return;
  }
  const shown = JSON.stringify(answer);
  if (typeof said === 'string') expect(shown).toContain(said);
  else expect(shown).toMatch(said);
  if (row.refusal === 'a notice pushed over it') {
    expect(answer).toMatchObject({ response_action: 'push', view: { type: 'modal' } });
  } else {
    expect(answer).toMatchObject({ response_action: 'update', view: { type: 'modal' } });
    expect(shown).not.toContain(BLOCK.catalogActions);
  }
}

describe.each(SUBMISSIONS)('submission $callback', (row) => {
  it('acknowledges once, only after the service resolved', async () => {
    const submitted = submit(row);
    const service = row.service(submitted);
    const release = service.hold();
    const running = submitted.run();
    await vi.waitFor(() => expect(service.spy).toHaveBeenCalledTimes(1));
    expect(submitted.ack).not.toHaveBeenCalled();
    release();
    await running;
    expect(submitted.ack).toHaveBeenCalledTimes(1);
    expect(submitted.slack.postEphemeral).not.toHaveBeenCalled();
  });

  it(`keeps the modal open on a refusal, saying it ${typeof row.refusal === 'object' ? 'under its input' : row.refusal}`, async () => {
    const submitted = submit(row);
    row.service(submitted).refuse();
    await submitted.run();
    expectKeptOpenSaying(row, submitted, REFUSAL.message);
  });

  const { forged } = row;
  if ('metadata' in forged) {
    for (const metadata of forged.metadata) {
      it(`ignores a forged or stale private_metadata: nothing asked (${JSON.stringify(metadata)})`, async () => {
        const submitted = submit(row, metadata);
        await submitted.run();
        expectNothingDone(submitted);
        expect(submitted.ack).toHaveBeenCalledTimes(1);
        expect(submitted.ack).toHaveBeenCalledWith(...forged.answer);
      });
    }
  } else {
    it(`ignores a forged or stale private_metadata: it reads none (${forged.none})`, async () => {
      const plain = submit(row);
      const forgedOne = submit(row, '{"qt":"<!channel>"}');
      await plain.run();
      await forgedOne.run();
      const [called, forgedCalled] = [row.service(plain).spy, row.service(forgedOne).spy];
      expect(called).toHaveBeenCalledTimes(1);
      expect(forgedCalled.mock.calls).toEqual(called.mock.calls);
      expect(forgedOne.ack.mock.calls).toEqual(plain.ack.mock.calls);
    });
  }

  it(`still acknowledges when the service throws, and says so: ${row.failure}`, async () => {
    const logged = vi.spyOn(log, 'error').mockImplementation(() => {});
    const submitted = submit(row);
    row.service(submitted).fail();
    if (row.failure === 'kept open like a refusal') {
      await expect(submitted.run()).resolves.toBeUndefined();
      expectKeptOpenSaying(row, submitted, /did not go through \(ref `[0-9a-f]{8}`\)\. Please submit again\./);
      return expectLoggedUnderItsRef(logged, JSON.stringify(submitted.ack.mock.calls[0]?.[0]));
    }
    await expect(submitted.run()).rejects.toThrow(FAILURE);
    expect(submitted.ack).toHaveBeenCalledTimes(1);
    expect(submitted.slack.postEphemeral).not.toHaveBeenCalled();
    if (row.failure === 'closes, thrown on') expect(submitted.ack).toHaveBeenCalledWith();
    else expect(submitted.ack).toHaveBeenCalledWith({ response_action: 'update', view: buildCatalogFailedModal() });
  });
});

// ───────────────────────────── The table against the registrations ─────────────────────────────

describe('the contract’s table', () => {
  const { clicks, submissions } = registered(fakes().deps);

  it('has a row for every action id the actions index registers', () => {
    const unrouted = clicks.filter(({ route }) => !CLICKS.some((row) => routes(route, row.action)));
    expect(unrouted.map(({ route }) => String(route))).toEqual([]);
  });

  it('clicks only what exactly one registered listener answers', () => {
    for (const row of CLICKS) expect(() => listenerFor(clicks, row.action), row.action).not.toThrow();
    expect(new Set(CLICKS.map((row) => row.action)).size).toBe(CLICKS.length);
  });

  it('has a row for every callback id the views index registers', () => {
    const unrouted = submissions.filter(({ route }) => !SUBMISSIONS.some((row) => routes(route, row.callback)));
    expect(unrouted.map(({ route }) => String(route))).toEqual([]);
  });

  it('submits only what exactly one registered listener answers', () => {
    for (const row of SUBMISSIONS) expect(() => listenerFor(submissions, row.callback), row.callback).not.toThrow();
    expect(new Set(SUBMISSIONS.map((row) => row.callback)).size).toBe(SUBMISSIONS.length);
  });
});
