// The four things a buyer does, played through the stand-in as people would: share the XLSX, settle the review
// (confirm the suggestions, name the supplier), start the negotiation from the modal, answer each question with its
// first suggested answer, then an approver opens the PO and approves it (a second approver when two are needed). When
// the recommendation (or the no-award message) offers a premium above the quote, the buyer clicks it or leaves it, as
// the story says; with no award and no premium accepted, there is nothing to approve and the story ends there.
// Every step is a real signed request into Parley's Bolt receiver; nothing is called behind its back.
import { ACTION, BLOCK, CALLBACK, answerCodec, reviewConfirmCodec, whichQuestionCodec } from '../../src/slack/ids.js';
import type { SubmitValues } from './driver.js';
import type { SlackSandbox } from './index.js';
import type { SandboxMessage, SandboxView } from './model.js';
import { CHANNEL, PEOPLE } from './sandboxed-parley.js';
import { offerButtonCodec } from '../../src/slack/views/offer-modal.js';

/** Where the story is played: the stand-in, and a way to wait until Parley has done what the last click asked. */
export interface StoryStage {
  sandbox: SlackSandbox;
  /** `thread`: the story's thread, for a stage that can wait for one thread rather than for all of Parley. */
  settle(thread?: { channel: string; ts: string }): Promise<void>;
}

export interface ButtonRef {
  actionId: string;
  value: string | undefined;
  text: string;
}

/** Every button in a message's blocks (in actions blocks and as section accessories), in order. */
export function buttonsIn(message: Pick<SandboxMessage, 'blocks'>): ButtonRef[] {
  const found: ButtonRef[] = [];
  const visit = (element: unknown) => {
    if (typeof element !== 'object' || element === null) return;
    const e = element as { type?: string; action_id?: string; value?: string; text?: { text?: string } };
    if (e.type === 'button' && e.action_id)
      found.push({ actionId: e.action_id, value: e.value, text: e.text?.text ?? '' });
  };
  for (const block of message.blocks ?? []) {
    const b = block as { elements?: unknown[]; accessory?: unknown };
    b.elements?.forEach(visit);
    visit(b.accessory);
  }
  return found;
}

/** Buttons of one kind that share a block carry an index (`question_answer:0`). */
function same(actionId: string, base: string): boolean {
  return actionId === base || actionId.startsWith(`${base}:`);
}

/** A person has one modal open at a time: stories played side by side in one workspace (the load run) take turns. */
const modalTurns = new WeakMap<SlackSandbox, Map<string, Promise<unknown>>>();
function oneModalAtATime<T>(sandbox: SlackSandbox, userId: string, work: () => Promise<T>): Promise<T> {
  const turns = modalTurns.get(sandbox) ?? new Map<string, Promise<unknown>>();
  modalTurns.set(sandbox, turns);
  const mine = (turns.get(userId) ?? Promise.resolve()).catch(() => {}).then(work);
  turns.set(userId, mine);
  return mine;
}

/** Whether a modal's private_metadata and a button's value name the same quotation or PO (`qt` / `po`). */
function sameSubject(metadata: unknown, buttonValue: string | undefined): boolean {
  const ids = (raw: unknown) => {
    try {
      const parsed = typeof raw === 'string' ? (JSON.parse(raw) as Record<string, unknown>) : {};
      return [parsed.qt, parsed.po].filter((id): id is string => typeof id === 'string');
    } catch {
      return [];
    }
  };
  const wanted = ids(buttonValue);
  return wanted.length > 0 && ids(metadata).some((id) => wanted.includes(id));
}

export interface StoryResult {
  threadTs: string;
  /** What people did, in order, as the demo narrates it. */
  actions: string[];
}

export interface StoryOptions {
  file: { name: string; bytes: Buffer };
  /** Answer questions by clicking (`button`) or by replying in the thread (`reply`). */
  answerBy?: 'button' | 'reply';
  /** What the buyer says when Parley offers to stop early. */
  earlyTermination?: 'finish' | 'continue';
  /** Stop after the negotiation is decided, before anyone approves. */
  stopBeforeApproval?: boolean;
  /** The channel to share in (default #sourcing; every person is a member of the stand-in's channels). */
  channelId?: string;
  /** Rounds picked in the start modal (default: the modal's default). */
  rounds?: number;
  /** Other start-modal inputs, by block id (the mandate: walk-away, deadline, sourcing, …); the rest keep defaults. */
  start?: SubmitValues;
  /** What the buyer does with a premium above the quote when one is offered (default: leaves it). */
  premium?: 'accept' | 'leave';
  /** On a comparison of suppliers, whose column the buyer picks to negotiate: its place, left to right (default 0). */
  comparisonColumn?: number;
  /**
   * Suppliers connected in Slack Connect channels (the quoting one first, then those invited beside it): the buyer
   * sends each of Alex's drafts, and the person of the supplier whose channel the request reaches answers it there.
   */
  suppliers?: readonly SupplierSide[];
  /**
   * The quoting supplier is not connected yet: before starting, `approverId` clicks the review card's Connect
   * supplier… and submits the suppliers modal (the supplier already picked) with its shared `channelId`.
   */
  connectFromReview?: { approverId: string; channelId: string };
}

/**
 * A connected supplier's side: `person` (of the supplier's organisation) answers each request in `channelId` with
 * Submit offer, filling the form as `answer` says (by block id; the rest keep the form's starting values).
 */
export interface SupplierSide {
  person: string;
  channelId: string;
  answer: (form: SandboxView) => SubmitValues;
  /** What the person first writes in words in the thread, before their first offer (Parley points them to the form). */
  writesFirst?: string;
  /** Once the PO is approved, the person accepts their part of it in their channel. */
  acceptsPo?: boolean;
  /**
   * A revised quotation to share in the thread instead of the form, for the request of `round` (none: the form).
   * Parley reads it and proposes the offer; the person clicks Submit this offer.
   */
  sharesFile?: (round: number) => Promise<{ name: string; bytes: Buffer } | null>;
}

const MAX_STEPS = 200;

export async function playStory(parley: StoryStage, options: StoryOptions): Promise<StoryResult> {
  const { sandbox } = parley;
  const { driver, model } = sandbox;
  const channel = options.channelId ?? CHANNEL.id;
  const actions: string[] = [];
  const buyer = PEOPLE.buyer.id;

  const shared = await driver.shareFile(buyer, channel, { name: options.file.name, bytes: options.file.bytes });
  const threadTs = shared.ts;
  const here = { channel, ts: threadTs };
  actions.push(`${PEOPLE.buyer.name} shares ${options.file.name} in #${model.channels.get(channel)?.name ?? channel}`);
  await parley.settle(here);

  const thread = () => model.thread(channel, threadTs);
  /** The person's open modal about the same thing as the button that opened it (its metadata names the same id). */
  const modalFor = (userId: string, buttonValue: string | undefined) =>
    model.openViews(userId).find((view) => sameSubject(view.view.private_metadata, buttonValue));
  const withButton = (actionId: string) => thread().filter((m) => buttonsIn(m).some((b) => same(b.actionId, actionId)));
  /**
   * Clicks a button that opens a modal and waits for it (views.open runs while the click is handled). A person whose
   * modal did not open — the app was restarting and the click's trigger expired — clicks again.
   */
  const openModal = async (who: string, message: SandboxMessage, button: ButtonRef, what: string) => {
    for (let attempt = 1; ; attempt++) {
      await driver.clickButton(who, { channel, ts: message.ts }, button.actionId, { value: button.value });
      try {
        return await sandbox.waitFor(() => modalFor(who, button.value), { what, timeoutMs: 10_000 });
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  };
  const click = async (who: string, message: SandboxMessage, button: ButtonRef) => {
    await driver.clickButton(who, { channel, ts: message.ts }, button.actionId, { value: button.value });
    await parley.settle(here);
  };

  // A comparison of several suppliers' prices: the buyer first picks whose column to negotiate.
  const comparison = withButton(ACTION.comparisonPickColumn)[0];
  if (comparison) {
    const columns = buttonsIn(comparison).filter((b) => same(b.actionId, ACTION.comparisonPickColumn));
    const picked = columns[options.comparisonColumn ?? 0];
    if (!picked) throw new Error(`No supplier column ${options.comparisonColumn ?? 0} to pick`);
    actions.push(`${PEOPLE.buyer.name} picks [${picked.text}] to negotiate`);
    await click(buyer, comparison, picked);
  }

  // Review: confirm all suggestions, name the supplier, then settle each line a click could not.
  let confirmedAll = false;
  for (let step = 0; step < MAX_STEPS; step++) {
    const review = [
      ACTION.reviewConfirmAll,
      ACTION.reviewSupplierCreate,
      ACTION.reviewSupplierUseExisting,
      ACTION.reviewConfirm,
      ACTION.reviewNotInCatalog,
      // A page whose lines are all settled (Confirm all settles the page on screen) still leads to the open ones.
      ACTION.reviewPageNext,
    ]
      .map((actionId) => withButton(actionId)[0])
      .find((message) => message !== undefined);
    if (!review) break;
    const buttons = buttonsIn(review);
    const find = (actionId: string) => buttons.find((b) => b.actionId === actionId);
    // A line with a suggestion is confirmed; one without any is marked as not in the catalog.
    const confirmable = buttons.find(
      (b) => b.actionId === ACTION.reviewConfirm && reviewConfirmCodec.decode(b.value)?.p,
    );
    const next =
      find(ACTION.reviewSupplierUseExisting) ??
      find(ACTION.reviewSupplierCreate) ??
      (confirmedAll ? undefined : find(ACTION.reviewConfirmAll)) ??
      confirmable ??
      find(ACTION.reviewNotInCatalog) ??
      find(ACTION.reviewPageNext);
    if (!next) break;
    if (next.actionId === ACTION.reviewConfirmAll) confirmedAll = true;
    actions.push(`${PEOPLE.buyer.name} clicks [${next.text}] in the review`);
    await click(buyer, review, next);
  }

  if (options.connectFromReview) {
    const { approverId, channelId } = options.connectFromReview;
    const card = withButton(ACTION.reviewConnectSupplier).at(-1);
    const connect = card && buttonsIn(card).find((b) => b.actionId === ACTION.reviewConnectSupplier);
    if (!card || !connect) throw new Error('The review offered no Connect supplier… button');
    actions.push(`${model.userName(approverId)} clicks [${connect.text}] in the review`);
    await oneModalAtATime(sandbox, approverId, async () => {
      await click(approverId, card, connect);
      const modal = await sandbox.waitFor(
        () => model.openViews(approverId).find((view) => view.view.callback_id === CALLBACK.suppliersModal),
        { what: 'the suppliers modal' },
      );
      actions.push(
        `${model.userName(approverId)} picks #${model.channels.get(channelId)?.name ?? channelId} and connects it`,
      );
      await driver.submitView(approverId, modal.id, { [BLOCK.supplierChannel]: channelId });
    });
    await parley.settle(here);
  }

  // Start: the button opens the modal; the buyer keeps the defaults and submits.
  const start = withButton(ACTION.reviewStartNegotiation).at(-1);
  if (!start) throw new Error('The thread never offered to start the negotiation');
  const startButton = buttonsIn(start).find((b) => b.actionId === ACTION.reviewStartNegotiation);
  if (!startButton) throw new Error('No start button');
  actions.push(`${PEOPLE.buyer.name} clicks [${startButton.text}]`);
  await oneModalAtATime(sandbox, buyer, async () => {
    const modal = await openModal(buyer, start, startButton, 'the start modal');
    actions.push(`${PEOPLE.buyer.name} submits the start modal with its defaults`);
    const inputs = { ...(options.rounds ? { [BLOCK.startRounds]: String(options.rounds) } : {}), ...options.start };
    await driver.submitView(buyer, modal.id, inputs);
  });
  await parley.settle(here);

  /**
   * The buyer sends Alex's draft; the person of the supplier whose channel the request reaches opens its Submit offer
   * and submits the form.
   */
  const answered = new Set<string | undefined>();
  const wrote = new Set<string>();
  const sendAndAnswer = async (draft: SandboxMessage, suppliers: readonly SupplierSide[]) => {
    const send = buttonsIn(draft).find((b) => b.actionId === ACTION.draftSend);
    if (!send) throw new Error('A draft without its Send button');
    actions.push(`${PEOPLE.buyer.name} clicks [${send.text}] on Alex's draft`);
    await click(buyer, draft, send);
    const pending = () =>
      suppliers
        .flatMap((side) => model.messages(side.channelId).map((message) => ({ side, message })))
        .flatMap(({ side, message }) => buttonsIn(message).map((button) => ({ side, message, button })))
        // The newest: a channel keeps the requests of its supplier's earlier negotiations, buttons and all.
        .findLast(({ button }) => button.actionId === ACTION.offerOpen && !answered.has(button.value));
    const {
      side: supplier,
      message,
      button,
    } = await sandbox.waitFor(pending, {
      what: 'the request in the supplier’s channel',
    });
    const { person, channelId } = supplier;
    const name = model.userName(person);
    if (supplier.writesFirst && !wrote.has(person)) {
      wrote.add(person);
      actions.push(`${name} (the supplier) replies in their thread: "${supplier.writesFirst}"`);
      await driver.replyInThread(person, channelId, message.threadTs ?? message.ts, supplier.writesFirst);
      await parley.settle(here);
    }
    answered.add(button.value);
    const round = offerButtonCodec.decode(button.value)?.r ?? 0;
    const file = await supplier.sharesFile?.(round);
    if (file) {
      actions.push(`${name} (the supplier) shares ${file.name} in their thread`);
      await driver.shareFile(person, channelId, { ...file, threadTs: message.threadTs ?? message.ts });
      await parley.settle(here);
      const proposal = await sandbox.waitFor(
        () =>
          model
            .messages(channelId)
            .flatMap((m) => buttonsIn(m).map((b) => ({ m, b })))
            .find(({ b }) => b.actionId === ACTION.offerFileSubmit && !answered.has(b.value)),
        { what: 'the offer Parley read from the file' },
      );
      answered.add(proposal.b.value);
      actions.push(`${name} (the supplier) clicks [${proposal.b.text}]`);
      await driver.clickButton(person, { channel: channelId, ts: proposal.m.ts }, ACTION.offerFileSubmit, {
        value: proposal.b.value,
      });
      await parley.settle(here);
      return;
    }
    await oneModalAtATime(sandbox, person, async () => {
      await driver.clickButton(person, { channel: channelId, ts: message.ts }, ACTION.offerOpen, {
        value: button.value,
      });
      const form = await sandbox.waitFor(
        () => model.openViews(person).find((view) => view.view.callback_id === CALLBACK.offerModal),
        { what: 'the supplier’s offer form' },
      );
      actions.push(`${name} (the supplier) clicks [${button.text}] and submits an offer`);
      await driver.submitView(person, form.id, supplier.answer(form));
    });
    await parley.settle(here);
  };

  // Questions until the decision is in (a recommendation, or no award within the mandate).
  const noAward = () => thread().filter((m) => (m.blocks ?? []).some((b) => b.block_id === BLOCK.decisionNoAward));
  const concluded = () => withButton(ACTION.decisionOpenPo).length > 0 || noAward().length > 0;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (concluded()) break;
    const early = withButton(ACTION.earlyTerminationFinish)[0];
    if (early) {
      const choice =
        options.earlyTermination === 'continue' ? ACTION.earlyTerminationContinue : ACTION.earlyTerminationFinish;
      const button = buttonsIn(early).find((b) => b.actionId === choice);
      if (button) {
        actions.push(`${PEOPLE.buyer.name} clicks [${button.text}]`);
        await click(buyer, early, button);
        continue;
      }
    }
    const draft = options.suppliers && withButton(ACTION.draftSend)[0];
    if (draft && options.suppliers) {
      await sendAndAnswer(draft, options.suppliers);
      continue;
    }
    const question = withButton(ACTION.questionAnswer)[0];
    if (!question) {
      await parley.settle(here);
      const waiting = [
        ACTION.questionAnswer,
        ACTION.earlyTerminationFinish,
        ...(options.suppliers ? [ACTION.draftSend] : []),
      ];
      if (waiting.every((actionId) => withButton(actionId).length === 0)) {
        if (concluded()) break;
        throw new Error('The negotiation stopped without a question or a decision');
      }
      continue;
    }
    const answer = buttonsIn(question).find((b) => same(b.actionId, ACTION.questionAnswer));
    if (!answer) continue;
    if (options.answerBy === 'reply') {
      actions.push(`${PEOPLE.buyer.name} replies in the thread: "${answer.text}"`);
      await driver.replyInThread(buyer, channel, threadTs, answer.text);
      await parley.settle(here);
      // With several questions open, Parley asks which one the reply answers: the buyer picks the one they meant.
      const asked = answerCodec.decode(answer.value)?.q;
      const which = withButton(ACTION.whichQuestion).at(-1);
      const meant = which && buttonsIn(which).find((b) => whichQuestionCodec.decode(b.value)?.q === asked);
      if (which && meant) {
        actions.push(`${PEOPLE.buyer.name} clicks [${meant.text}]`);
        await click(buyer, which, meant);
      }
    } else {
      actions.push(`${PEOPLE.buyer.name} clicks [${answer.text}]`);
      await click(buyer, question, answer);
    }
  }

  // A premium above the quote: paying more than the quote takes the buyer's click.
  const offering = withButton(ACTION.decisionAcceptPremium).at(-1);
  const premium = offering && buttonsIn(offering).find((b) => b.actionId === ACTION.decisionAcceptPremium);
  if (offering && premium && options.premium === 'accept') {
    const before = withButton(ACTION.decisionOpenPo).length;
    actions.push(`${PEOPLE.buyer.name} clicks [${premium.text}]`);
    await click(buyer, offering, premium);
    await sandbox.waitFor(() => withButton(ACTION.decisionOpenPo).length > before, {
      what: 'the recommendation after the premium',
      timeoutMs: 60_000,
    });
  } else if (premium) {
    actions.push(`${PEOPLE.buyer.name} leaves [${premium.text}] unclicked: the award stays within the quote`);
  }
  if (withButton(ACTION.decisionOpenPo).length === 0) {
    actions.push('No award within the mandate: no purchase order to approve');
    return { threadTs, actions };
  }
  if (options.stopBeforeApproval) return { threadTs, actions };

  // Approval: each approver needed opens the PO from the decision and approves it in the modal; once the PO is
  // approved, the next approver's modal is read-only (no Approve button) and the story ends.
  for (const approver of [PEOPLE.approver, PEOPLE.secondApprover]) {
    const decision = withButton(ACTION.decisionOpenPo).at(-1);
    const open = decision && buttonsIn(decision).find((b) => b.actionId === ACTION.decisionOpenPo);
    if (!decision || !open) throw new Error('No decision with a PO to review');
    const approved = await oneModalAtATime(sandbox, approver.id, async () => {
      const po = await openModal(approver.id, decision, open, 'the PO modal');
      if (po.view.submit === undefined) {
        await driver.closeView(approver.id, po.id);
        return true;
      }
      actions.push(`${approver.name} clicks [${open.text}], then [Approve] in the PO modal`);
      await driver.submitView(approver.id, po.id, {});
      return false;
    });
    if (approved) break;
    await parley.settle(here);
  }
  for (const supplier of options.suppliers ?? []) {
    if (supplier.acceptsPo) await acceptInSupplierChannel(parley, supplier, actions);
  }
  return { threadTs, actions };
}

/** The supplier's person accepts their part of the approved PO, in their own channel. */
async function acceptInSupplierChannel(parley: StoryStage, supplier: SupplierSide, actions: string[]): Promise<void> {
  const { sandbox } = parley;
  const { person, channelId } = supplier;
  const { message, button } = await sandbox.waitFor(
    () =>
      sandbox.model
        .messages(channelId)
        .flatMap((message) => buttonsIn(message).map((button) => ({ message, button })))
        .find(({ button }) => button.actionId === ACTION.poSupplierAccept),
    { what: 'the approved PO in the supplier’s channel' },
  );
  actions.push(`${sandbox.model.userName(person)} (the supplier) clicks [${button.text}] in their channel`);
  await sandbox.driver.clickButton(person, { channel: channelId, ts: message.ts }, ACTION.poSupplierAccept, {
    value: button.value,
  });
  await parley.settle();
}
