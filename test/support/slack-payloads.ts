// For the listener tests: Slack payloads shaped as Bolt hands them to a listener (Bolt's own types, with the fields
// Slack sends), and the fakes a listener needs — an `ack`, a real WebClient whose methods are spied (nothing leaves
// the test), and the Parley and Screens interfaces of src/slack/deps.ts answering "done" unless a test says otherwise.
// The services behind those interfaces are tested on their own; end to end, test/e2e runs the real thing.
import type {
  AckFn,
  BlockAction,
  BlockElementAction,
  ButtonAction,
  Context,
  EnvelopedEvent,
  MessageShortcut,
  RespondFn,
  SlashCommand,
  ViewOutput,
  ViewSubmitAction,
} from '@slack/bolt';
import type {
  AppHomeOpenedEvent,
  FileShareMessageEvent,
  FileSharedEvent,
  GenericMessageEvent,
  ModalView,
} from '@slack/types';
import { WebClient } from '@slack/web-api';
import { vi } from 'vitest';
import type { CatalogImportReport, CatalogPreview } from '../../src/app-types.js';
import type { Parley, Refusal, Screens, SlackDeps } from '../../src/slack/deps.js';
import { ACTION, BLOCK, CALLBACK, reviewPageCodec } from '../../src/slack/ids.js';
import { buildCatalogPreviewModal } from '../../src/slack/views/index.js';

export const TEAM = 'T0PARLEY01';
export const USER = 'U0BUYER001';
export const BOT_USER = 'U0PARLEYBT';
export const CHANNEL = 'C0QUOTES01';
/** The thread a quotation's conversation happens in: the ts of the message that shared the file. */
export const THREAD_TS = '1767225600.000100';
export const MESSAGE_TS = '1767225660.000200';
export const TRIGGER_ID = '1234567890.0987654321.abcdef';
/** Ids as Parley puts them in values (cuids). */
export const IDS = {
  quotation: 'clquotation000000000000001',
  item: 'clquotationitem00000000001',
  product: 'clproduct00000000000000001',
  otherProduct: 'clproduct00000000000000002',
  supplier: 'clsupplier0000000000000001',
  question: 'clpendingquestion000000001',
  negotiation: 'clnegotiation0000000000001',
  strategy: 'clstrategy0000000000000001',
  purchaseOrder: 'clpurchaseorder00000000001',
  /** A premium offer's id, as decide.ts makes it. */
  premium: 'p1x2y3z4',
} as const;

// ───────────────────────────── Fakes ─────────────────────────────

export const DONE = { ok: true } as const;

/** A catalog preview and import report as the services answer them (`/parley catalog`). */
export const CATALOG_PREVIEW: CatalogPreview = {
  importId: 'clcatalogimport00000000001',
  fileName: 'catalog.csv',
  sheet: null,
  rowsRead: 3,
  importable: 2,
  merge: { added: 1, changed: 1, unchanged: 0, removed: 0, retired: 0 },
  replace: { added: 1, changed: 1, unchanged: 0, removed: 5, retired: 1 },
  sample: [{ sku: 'JK-1001-BLK-M', name: 'Ridge Jacket', color: 'Black', size: 'M', category: 'Jackets' }],
  problems: [{ row: 4, sku: null, message: 'name is empty' }],
  problemCount: 1,
  catalogSize: 7,
};
export const CATALOG_REPORT: CatalogImportReport = {
  importId: CATALOG_PREVIEW.importId,
  fileName: 'catalog.csv',
  mode: 'merge',
  added: 1,
  changed: 1,
  removed: 0,
  retired: 0,
  catalogSize: 8,
  repeated: false,
};

export function refused(message = 'Only <@U0OTHER001> and the approvers can do that.'): { ok: false } & Refusal {
  return { ok: false, error: 'not_allowed', message };
}

export const MODAL: ModalView = { type: 'modal', title: { type: 'plain_text', text: 'Parley' }, blocks: [] };

/** An `ack` that records its calls (Bolt's listeners get one per request). */
export function fakeAck<Response = void>() {
  return vi.fn<AckFn<Response>>(async () => {});
}

/** A `respond` (the payload's response_url) that records what it was asked to post. */
export function fakeRespond() {
  return vi.fn<RespondFn>(async () => new Response());
}

export function fakeParley() {
  return {
    fileShared: vi.fn<Parley['fileShared']>(async () => DONE),
    recentFiles: vi.fn<Parley['recentFiles']>(async () => ({ ok: true, value: [] })),
    reviewItem: vi.fn<Parley['reviewItem']>(async () => DONE),
    confirmAll: vi.fn<Parley['confirmAll']>(async () => DONE),
    downloadReviewLines: vi.fn<Parley['downloadReviewLines']>(async () => DONE),
    chooseSupplier: vi.fn<Parley['chooseSupplier']>(async () => DONE),
    chooseComparisonColumn: vi.fn<Parley['chooseComparisonColumn']>(async () => DONE),
    showReviewPage: vi.fn<Parley['showReviewPage']>(async () => DONE),
    beginNegotiation: vi.fn<Parley['beginNegotiation']>(async () => DONE),
    answerQuestion: vi.fn<Parley['answerQuestion']>(async () => DONE),
    chooseCurveballStrategy: vi.fn<Parley['chooseCurveballStrategy']>(async () => DONE),
    decideDraft: vi.fn<Parley['decideDraft']>(async () => DONE),
    submitSupplierOffer: vi.fn<Parley['submitSupplierOffer']>(async () => DONE),
    submitOfferFile: vi.fn<Parley['submitOfferFile']>(async () => DONE),
    submitWordsOffer: vi.fn<Parley['submitWordsOffer']>(async () => DONE),
    acceptSupplierPo: vi.fn<Parley['acceptSupplierPo']>(async () => DONE),
    querySupplierPo: vi.fn<Parley['querySupplierPo']>(async () => DONE),
    acceptPremium: vi.fn<Parley['acceptPremium']>(async () => DONE),
    rateRecommendation: vi.fn<Parley['rateRecommendation']>(async () => DONE),
    threadReply: vi.fn<Parley['threadReply']>(async () => null),
    answerWhichQuestion: vi.fn<Parley['answerWhichQuestion']>(async () => DONE),
    approvePo: vi.fn<Parley['approvePo']>(async () => DONE),
    rejectPo: vi.fn<Parley['rejectPo']>(async () => DONE),
    previewCatalog: vi.fn<Parley['previewCatalog']>(async () => ({ ok: true, value: CATALOG_PREVIEW })),
    importCatalog: vi.fn<Parley['importCatalog']>(async () => ({
      ok: true,
      value: { fileName: 'catalog.csv', finished: Promise.resolve(CATALOG_REPORT) },
    })),
    cancelCatalogImport: vi.fn<Parley['cancelCatalogImport']>(async () => DONE),
    connectSupplier: vi.fn<Parley['connectSupplier']>(async () => DONE),
    channelSharingChanged: vi.fn<Parley['channelSharingChanged']>(async () => undefined),
    homeOpened: vi.fn<Parley['homeOpened']>(async () => ({ becameApprover: false })),
    uninstalled: vi.fn<Parley['uninstalled']>(async () => undefined),
  } satisfies Parley;
}

export function fakeScreens() {
  return {
    startModal: vi.fn<Screens['startModal']>(async () => ({ ok: true, value: MODAL })),
    poModal: vi.fn<Screens['poModal']>(async () => ({ ok: true, value: MODAL })),
    rejectModal: vi.fn<Screens['rejectModal']>(async () => ({ ok: true, value: MODAL })),
    channelStatus: vi.fn<Screens['channelStatus']>(async () => ({ text: 'Nothing in this channel yet.', blocks: [] })),
    settingsModal: vi.fn<Screens['settingsModal']>(async () => ({ ok: true, value: MODAL })),
    saveSettings: vi.fn<Screens['saveSettings']>(async () => DONE),
    quotationChannel: vi.fn<Screens['quotationChannel']>(async () => CHANNEL),
    purchaseOrderChannel: vi.fn<Screens['purchaseOrderChannel']>(async () => CHANNEL),
    catalogModal: vi.fn<Screens['catalogModal']>(async () => ({ ok: true, value: MODAL })),
    suppliersModal: vi.fn<Screens['suppliersModal']>(async () => ({ ok: true, value: MODAL })),
    offerModal: vi.fn<Screens['offerModal']>(async () => ({ ok: true, value: MODAL })),
    poQueryModal: vi.fn<Screens['poQueryModal']>(async () => ({ ok: true, value: MODAL })),
    draftEditModal: vi.fn<Screens['draftEditModal']>(async () => ({ ok: true, value: MODAL })),
  } satisfies Screens;
}

/** The listener's dependencies, each method a spy. */
export function fakeDeps() {
  const parley = fakeParley();
  const screens = fakeScreens();
  const deps: SlackDeps = { parley, screens };
  return { deps, parley, screens };
}

/**
 * A real WebClient, pointed at nothing: the methods listeners call are spied and answer `ok`, so what a listener
 * sends Slack is asserted on the spies, and a call nobody expected fails (connection refused) instead of passing.
 */
export function spiedClient() {
  const client = new WebClient('xoxb-listener-test', {
    slackApiUrl: 'http://127.0.0.1:9/api/',
    retryConfig: { retries: 0 },
  });
  return {
    client,
    postEphemeral: vi.spyOn(client.chat, 'postEphemeral').mockResolvedValue({ ok: true }),
    postMessage: vi.spyOn(client.chat, 'postMessage').mockResolvedValue({ ok: true }),
    viewsOpen: vi.spyOn(client.views, 'open').mockResolvedValue({ ok: true, view: OPENED_VIEW }),
    viewsPush: vi.spyOn(client.views, 'push').mockResolvedValue({ ok: true, view: OPENED_VIEW }),
    viewsUpdate: vi.spyOn(client.views, 'update').mockResolvedValue({ ok: true }),
    viewsPublish: vi.spyOn(client.views, 'publish').mockResolvedValue({ ok: true }),
  };
}

/** The view views.open/push answer with (the loading view a modal opens with, then updated by its id and hash). */
export const OPENED_VIEW = { id: 'V0LOADING1', hash: '1767225700.loading' };

/** Holds a spied service's next answer until released: what does the listener do while the service is working? */
export function holdNext<T>(service: { mockReturnValueOnce(value: Promise<T>): unknown }): (answer: T) => void {
  let release: (answer: T) => void = () => {};
  service.mockReturnValueOnce(new Promise<T>((resolve) => (release = resolve)));
  return (answer) => release(answer);
}

// ───────────────────────────── Block actions ─────────────────────────────

export interface ClickOptions {
  /** The button's value; absent for elements that carry none. */
  value?: string;
  /** The message the button is on (its blocks: the review's pager tells the page shown). */
  blocks?: unknown[];
  state?: BlockAction['state'];
  /** Null: Slack sent no team (some Enterprise Grid payloads); the user's team_id is used then. */
  team?: string | null;
  /** Null: a click inside a modal, which has no channel. */
  channel?: string | null;
  /** The thread the clicked message is in. */
  threadTs?: string | null;
}

/** A click on a button, as Bolt hands it to an action listener (`body` and `action`). */
export function buttonClick(
  actionId: string,
  options: ClickOptions = {},
): { body: BlockAction<BlockElementAction>; action: BlockElementAction } {
  const action: ButtonAction = {
    type: 'button',
    block_id: 'block',
    action_id: actionId,
    action_ts: '1767225700.000300',
    value: options.value,
    text: { type: 'plain_text', text: 'Button' },
  };
  const channel = options.channel === undefined ? CHANNEL : options.channel;
  const team = options.team === undefined ? TEAM : options.team;
  const body: BlockAction<BlockElementAction> = {
    type: 'block_actions',
    actions: [action],
    team: team === null ? null : { id: team, domain: 'parley-test' },
    user: { id: USER, username: 'buyer', team_id: TEAM },
    channel: channel === null ? undefined : { id: channel, name: 'quotes' },
    message:
      channel === null
        ? undefined
        : {
            type: 'message',
            ts: MESSAGE_TS,
            thread_ts: options.threadTs === undefined ? THREAD_TS : (options.threadTs ?? undefined),
            blocks: options.blocks ?? [],
          },
    state: options.state,
    token: 'verification-token',
    response_url: 'https://hooks.slack.com/actions/T0PARLEY01/1/abc',
    trigger_id: TRIGGER_ID,
    api_app_id: 'A0PARLEY01',
    container: { type: 'message', message_ts: MESSAGE_TS, channel_id: channel },
  };
  return { body, action };
}

/**
 * A click on a button of the catalog preview: inside the catalog modal (no channel; `body.view` is the modal), which
 * shows `shown` — the preview of CATALOG_PREVIEW unless a test says otherwise.
 */
export function catalogPreviewClick(
  actionId: string,
  options: { value?: string; shown?: ModalView } = {},
): { body: BlockAction<BlockElementAction>; action: BlockElementAction } {
  const clicked = buttonClick(actionId, { value: options.value, channel: null });
  const { view } = viewSubmission(CALLBACK.catalogModal);
  view.blocks = (options.shown ?? buildCatalogPreviewModal(CATALOG_PREVIEW)).blocks;
  clicked.body.view = view;
  return clicked;
}

/** A review message's pager showing `page` (of more), as the review builder renders it. */
export function pagerBlocks(page: number, quotationId: string = IDS.quotation): unknown[] {
  const elements = [];
  if (page > 1) {
    elements.push({
      type: 'button',
      action_id: ACTION.reviewPagePrev,
      value: reviewPageCodec.encode({ qt: quotationId, pg: page - 1 }),
    });
  }
  elements.push({
    type: 'button',
    action_id: ACTION.reviewPageNext,
    value: reviewPageCodec.encode({ qt: quotationId, pg: page + 1 }),
  });
  return [{ type: 'actions', block_id: BLOCK.reviewPager, elements }];
}

// ───────────────────────────── View submissions ─────────────────────────────

export type StateValues = ViewOutput['state']['values'];

/** A modal submitted, as Bolt hands it to a view listener (`body` and `view`). */
export function viewSubmission(
  callbackId: string,
  options: { privateMetadata?: string; values?: StateValues; team?: string | null } = {},
): { body: ViewSubmitAction; view: ViewOutput } {
  const view: ViewOutput = {
    id: 'V0MODAL001',
    callback_id: callbackId,
    team_id: TEAM,
    app_id: 'A0PARLEY01',
    bot_id: 'B0PARLEY01',
    title: { type: 'plain_text', text: 'Parley' },
    type: 'modal',
    blocks: [],
    close: null,
    submit: { type: 'plain_text', text: 'Submit' },
    state: { values: options.values ?? {} },
    hash: '1767225700.abcdef',
    private_metadata: options.privateMetadata ?? '',
    root_view_id: 'V0MODAL001',
    previous_view_id: null,
    clear_on_close: false,
    notify_on_close: false,
  };
  const team = options.team === undefined ? TEAM : options.team;
  const body: ViewSubmitAction = {
    type: 'view_submission',
    team: team === null ? null : { id: team, domain: 'parley-test' },
    user: { id: USER, name: 'buyer', team_id: TEAM },
    view,
    api_app_id: 'A0PARLEY01',
    token: 'verification-token',
    trigger_id: TRIGGER_ID,
  };
  return { body, view };
}

const option = (value: string) => ({ text: { type: 'plain_text' as const, text: value }, value });

/** The start modal's state as Slack sends it (block and action ids from src/slack/ids.ts). */
export function startModalValues(v: {
  mode?: string;
  rounds?: string;
  budget?: string;
  target?: string;
  walkAway?: string;
  requiredBy?: string;
  maxLeadTime?: string;
  sourcing?: string;
  /** The simulated suppliers ticked (default: both). */
  invited?: string[];
}): StateValues {
  return {
    [BLOCK.startMode]: {
      [ACTION.startMode]: { type: 'static_select', selected_option: v.mode ? option(v.mode) : null },
    },
    [BLOCK.startRounds]: {
      [ACTION.startRounds]: { type: 'static_select', selected_option: v.rounds ? option(v.rounds) : null },
    },
    [BLOCK.startQuestionBudget]: { [ACTION.startQuestionBudget]: { type: 'number_input', value: v.budget ?? '3' } },
    [BLOCK.startTargetTotal]: { [ACTION.startTargetTotal]: { type: 'number_input', value: v.target ?? null } },
    [BLOCK.startWalkAwayTotal]: { [ACTION.startWalkAwayTotal]: { type: 'number_input', value: v.walkAway ?? null } },
    [BLOCK.startRequiredBy]: { [ACTION.startRequiredBy]: { type: 'datepicker', selected_date: v.requiredBy ?? null } },
    [BLOCK.startMaxLeadTime]: { [ACTION.startMaxLeadTime]: { type: 'number_input', value: v.maxLeadTime ?? null } },
    [BLOCK.startSourcing]: {
      [ACTION.startSourcing]: { type: 'radio_buttons', selected_option: option(v.sourcing ?? 'any') },
    },
    [BLOCK.startInvited]: {
      [ACTION.startInvited]: {
        type: 'checkboxes',
        selected_options: (v.invited ?? ['SUP-002', 'SUP-003']).map(option),
      },
    },
    [BLOCK.startNotes]: { [ACTION.startNotes]: { type: 'plain_text_input', value: null } },
  };
}

export function rejectModalValues(reason: string | null): StateValues {
  return { [BLOCK.rejectReason]: { [ACTION.rejectReason]: { type: 'plain_text_input', value: reason } } };
}

/** The catalog modal's state with one uploaded file (a `file_input` sends the files Slack stored for it). */
/** The suppliers modal's inputs: a picked supplier (by id) or a new one's name, and a conversations_select's channel. */
export function suppliersModalValues(picked: string | null, name: string | null, channel: string | null): StateValues {
  return {
    [BLOCK.supplierPick]: {
      [ACTION.supplierPick]: {
        type: 'static_select',
        selected_option: picked === null ? null : { text: { type: 'plain_text', text: picked }, value: picked },
      },
    },
    [BLOCK.supplierNewName]: { [ACTION.supplierNewName]: { type: 'plain_text_input', value: name } },
    [BLOCK.supplierChannel]: {
      [ACTION.supplierChannel]: { type: 'conversations_select', selected_conversation: channel },
    },
  };
}

export function catalogModalValues(files: { id: string; name: string }[]): StateValues {
  return {
    [BLOCK.catalogFile]: {
      [ACTION.catalogFile]: {
        type: 'file_input',
        files: files.map((file) => ({
          ...file,
          created: 1767225600,
          timestamp: 1767225600,
          title: file.name,
          filetype: file.name.split('.').pop() ?? '',
          mimetype: 'text/csv',
          permalink: `https://parley-test.slack.com/files/${USER}/${file.id}/${file.name}`,
          url_private: `https://files.slack.com/files-pri/${TEAM}-${file.id}/${file.name}`,
          url_private_download: `https://files.slack.com/files-pri/${TEAM}-${file.id}/download/${file.name}`,
          user: USER,
          user_team: TEAM,
        })),
      },
    },
  };
}

export function settingsModalValues(v: {
  approvers: string[];
  amount: string | null;
  rounds?: string;
  brandName?: string;
}): StateValues {
  return {
    [BLOCK.settingsBrandName]: {
      [ACTION.settingsBrandName]: { type: 'plain_text_input', value: v.brandName ?? 'Valden Outdoor' },
    },
    [BLOCK.settingsApprovers]: {
      [ACTION.settingsApprovers]: { type: 'multi_users_select', selected_users: v.approvers },
    },
    [BLOCK.settingsDualApproval]: { [ACTION.settingsDualApproval]: { type: 'number_input', value: v.amount } },
    [BLOCK.settingsDefaultMode]: {
      [ACTION.settingsDefaultMode]: { type: 'static_select', selected_option: option('balanced') },
    },
    [BLOCK.settingsDefaultRounds]: {
      [ACTION.settingsDefaultRounds]: { type: 'static_select', selected_option: option(v.rounds ?? '3') },
    },
    [BLOCK.settingsDefaultQuestionBudget]: {
      [ACTION.settingsDefaultQuestionBudget]: { type: 'number_input', value: '2' },
    },
  };
}

// ───────────────────────────── Commands and shortcuts ─────────────────────────────

/** `/parley <text>`; `threadTs` when run in a thread (newer clients send it). */
export function slashCommand(text: string, options: { threadTs?: string } = {}): SlashCommand {
  return {
    token: 'verification-token',
    command: '/parley',
    text,
    response_url: 'https://hooks.slack.com/commands/T0PARLEY01/1/abc',
    trigger_id: TRIGGER_ID,
    user_id: USER,
    user_name: 'buyer',
    team_id: TEAM,
    team_domain: 'parley-test',
    channel_id: CHANNEL,
    channel_name: 'quotes',
    api_app_id: 'A0PARLEY01',
    ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
  };
}

/** The message shortcut on a message carrying `files` (in a thread when `threadTs`). */
export function messageShortcut(
  callbackId: string,
  options: {
    files?: unknown[];
    threadTs?: string;
    team?: string | null;
    /** The message's author (default: the person running the shortcut). */
    author?: string;
    /** The team of whoever runs the shortcut, when it is not the workspace's (Slack Connect). */
    userTeam?: string;
  } = {},
): MessageShortcut {
  const team = options.team === undefined ? TEAM : options.team;
  const userTeam = options.userTeam ?? team ?? undefined;
  return {
    type: 'message_action',
    callback_id: callbackId,
    trigger_id: TRIGGER_ID,
    message_ts: MESSAGE_TS,
    response_url: 'https://hooks.slack.com/app/T0PARLEY01/1/abc',
    message: {
      type: 'message',
      user: options.author ?? USER,
      ts: MESSAGE_TS,
      ...(options.threadTs ? { thread_ts: options.threadTs } : {}),
      ...(options.files ? { files: options.files } : {}),
    },
    user: { id: USER, name: 'buyer', team_id: userTeam },
    channel: { id: CHANNEL, name: 'quotes' },
    team: team === null ? null : { id: team, domain: 'parley-test' },
    token: 'verification-token',
    action_ts: '1767225700.000300',
  };
}

// ───────────────────────────── Events ─────────────────────────────

/** The Events API envelope around `event` (the `body` Bolt hands an event listener). */
export function envelope<E>(event: E, teamId: string = TEAM): EnvelopedEvent<E> {
  return {
    token: 'verification-token',
    team_id: teamId,
    api_app_id: 'A0PARLEY01',
    event,
    type: 'event_callback',
    event_id: 'Ev0PARLEY01',
    event_time: 1767225700,
  };
}

/** Bolt's context for a request in Parley's workspace (the bot user tells Parley's own uploads apart). */
export const CONTEXT: Context = { isEnterpriseInstall: false, botUserId: BOT_USER, teamId: TEAM };

export function fileSharedEvent(fileId: string, userId: string = USER): FileSharedEvent {
  return {
    type: 'file_shared',
    file_id: fileId,
    user_id: userId,
    file: { id: fileId },
    channel_id: CHANNEL,
    event_ts: '1767225600.000100',
  };
}

type MessageFile = NonNullable<FileShareMessageEvent['files']>[number];

function sharedFile(id: string, name: string): MessageFile {
  return {
    id,
    created: 1767225600,
    name,
    title: name,
    mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    filetype: 'xlsx',
    pretty_type: 'Excel Spreadsheet',
    user: USER,
    editable: false,
    size: 18_432,
    mode: 'hosted',
    is_external: false,
    external_type: null,
    is_public: true,
    public_url_shared: false,
    display_as_bot: false,
    username: null,
    permalink: `https://parley-test.slack.com/files/${USER}/${id}/${name}`,
    channels: [CHANNEL],
    groups: null,
  };
}

/** The upload's own message (subtype `file_share`): its ts is the thread the quotation's conversation happens in. */
export function fileShareMessageEvent(fileIds: string[]): FileShareMessageEvent {
  return {
    type: 'message',
    subtype: 'file_share',
    text: '',
    files: fileIds.map((id) => sharedFile(id, `${id}.xlsx`)),
    user: USER,
    ts: THREAD_TS,
    channel: CHANNEL,
    channel_type: 'channel',
    event_ts: THREAD_TS,
  };
}

/** A person's message; in a thread when `threadTs` is given (a reply unless it equals the message's own ts). */
export function messageEvent(text: string, options: { threadTs?: string; ts?: string } = {}): GenericMessageEvent {
  const ts = options.ts ?? MESSAGE_TS;
  return {
    type: 'message',
    subtype: undefined,
    event_ts: ts,
    channel: CHANNEL,
    user: USER,
    text,
    ts,
    thread_ts: options.threadTs,
    channel_type: 'channel',
  };
}

export function appHomeOpenedEvent(tab: 'home' | 'messages' = 'home'): AppHomeOpenedEvent {
  return { type: 'app_home_opened', user: USER, channel: 'D0PARLEY01', tab, event_ts: '1767225700.000300' };
}
