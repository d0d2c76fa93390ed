// The database goes away while buyers share files and click: what Parley acknowledged must be there when it comes
// back, or the buyer must have been told to try again.
// Parley (`src/main.ts`) reaches PostgreSQL through a proxy the bench cuts for a few seconds; meanwhile buyers share
// quotations. Slack takes a 2xx as "done" and never sends that event again, so a file whose every delivery got a 2xx
// and that has no quotation afterwards is lost (`ackedButLost`). Deliveries that did not get a 2xx are retried after
// the outage, as Slack retries them, and must then be saved too (`lostAfterRetries`).
import { readFile } from 'node:fs/promises';

import { ACTION, reviewConfirmCodec } from '../../src/slack/ids.js';
import type { DriverResponse, SubmitResult } from '../slack-stand-in/driver.js';
import { buttonsIn, playStory } from '../slack-stand-in/play-story.js';
import { CHANNEL, PEOPLE, freePort, standInEnv, startStoryStandIn } from '../slack-stand-in/sandboxed-parley.js';
import type { BenchDatabase } from './bench-databases.js';
import { ParleyProcess, settleProcesses, sleep } from './parley-process.js';
import { STORY_SAMPLE } from './story-run.js';
import { startTcpProxy } from './tcp-proxy.js';

/** A quotation with OCR-damaged SKUs: lines whose suggestions the buyer confirms. */
const REVIEW_SAMPLE = new URL('../../data/samples/10-ocr-sku-errors-custom-items.xlsx', import.meta.url);

export interface OutageOutcome {
  uploads: number;
  /** Files every delivery of which was acknowledged with a 2xx during the outage. */
  acknowledged: number;
  ackedButLost: number;
  /** Files still missing after Slack's retries of the deliveries that were not acknowledged. */
  lostAfterRetries: number;
  /** Review confirmations clicked during the outage; those acknowledged, those saved, and the notices the buyer got. */
  clicksSent: number;
  clicks: number;
  clicksSaved: number;
  failureNotices: number;
  /**
   * A PO approval submitted from its modal during the outage: whether Slack was told it went through (the modal
   * closed), and whether the approval is in the database afterwards (null: no PO to approve, which fails the run).
   */
  approval: { acknowledged: boolean; saved: boolean } | null;
  seconds: number;
}

export async function runOutage(options: {
  db: BenchDatabase;
  uploads: number;
  outageMs: number;
  logPath?: string;
}): Promise<OutageOutcome> {
  if (options.db.kind !== 'postgres') throw new Error('the outage run needs PostgreSQL (it cuts a TCP proxy)');
  const started = performance.now();
  const url = new URL(options.db.env.DATABASE_URL ?? '');
  const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.port = String(proxy.port);
  const sandbox = await startStoryStandIn({ seed: 1 });
  const port = await freePort();
  const parley = new ParleyProcess({
    port,
    instanceId: 'outage-1',
    logPath: options.logPath,
    env: { ...standInEnv(sandbox, port), DATABASE_URL: url.toString(), SLACK_POST_INTERVAL_MS: '20' },
  });
  const bytes = await readFile(STORY_SAMPLE);
  try {
    await parley.start();
    sandbox.setEventsUrl(`${parley.url}/slack/events`);
    // The raw answers are the point: no re-delivery behind the bench's back.
    sandbox.driver.redeliverForMs = 0;

    // A story up to its decision before the outage: its PO's approval is submitted while the database is away.
    const stage = {
      sandbox,
      settle: async () => {
        await sandbox.driver.idle();
        await settleProcesses([parley], 300_000);
      },
    };
    const decided = await playStory(stage, { file: { name: 'decided.xlsx', bytes }, stopBeforeApproval: true });
    const approver = PEOPLE.approver.id;
    const decision = sandbox.model
      .thread(CHANNEL.id, decided.threadTs)
      .filter((message) => buttonsIn(message).some((b) => b.actionId === ACTION.decisionOpenPo))
      .at(-1);
    const openPo = decision && buttonsIn(decision).find((b) => b.actionId === ACTION.decisionOpenPo);
    if (decision && openPo) {
      await sandbox.driver.clickButton(approver, { channel: CHANNEL.id, ts: decision.ts }, openPo.actionId, {
        value: openPo.value,
      });
    }
    const poModal = decision
      ? await sandbox
          .waitFor(() => sandbox.model.openViews(approver).find((view) => view.view.submit !== undefined), {
            what: 'the PO modal',
            timeoutMs: 30_000,
          })
          .catch(() => undefined)
      : undefined;
    const approverNoticesBefore = sandbox.model.ephemerals(approver).length;

    // A quotation in review before the outage: its lines' Confirm buttons are clicked while the database is away.
    const first = await sandbox.driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, {
      name: 'before.xlsx',
      bytes: await readFile(REVIEW_SAMPLE),
    });
    await sandbox.driver.idle();
    await settleProcesses([parley], 120_000);
    const confirms = sandbox.model
      .thread(CHANNEL.id, first.ts)
      .flatMap((message) => buttonsIn(message).map((button) => ({ message, button })))
      .filter(({ button }) => button.actionId === ACTION.reviewConfirm && reviewConfirmCodec.decode(button.value)?.p);
    const noticesBefore = sandbox.model.ephemerals(PEOPLE.buyer.id).length;

    proxy.cut();
    const clicked: string[] = [];
    for (const { message, button } of confirms.slice(0, 5)) {
      const item = reviewConfirmCodec.decode(button.value)?.i;
      const response = await sandbox.driver.clickButton(
        PEOPLE.buyer.id,
        { channel: CHANNEL.id, ts: message.ts },
        button.actionId,
        { value: button.value },
      );
      if (item && isAcknowledged(response)) clicked.push(item);
    }
    const approvalResponse = poModal ? await sandbox.driver.submitView(approver, poModal.id, {}) : null;
    const outageEnds = Date.now() + options.outageMs;
    const shared: { fileId: string; responses: DriverResponse[] }[] = [];
    for (let i = 0; i < options.uploads && Date.now() < outageEnds; i++) {
      const share = await sandbox.driver.shareFile(PEOPLE.buyer.id, CHANNEL.id, {
        name: `outage-${i + 1}.xlsx`,
        bytes,
      });
      // An event Slack would not send the app (not subscribed) is neither acknowledged nor retried.
      const delivered = [share.message, share.fileShared].filter((response) => response.notDelivered === undefined);
      shared.push({ fileId: share.fileId, responses: delivered });
    }
    await sleep(Math.max(0, outageEnds - Date.now()));
    proxy.restore();

    const acknowledged = shared.filter(({ responses }) => responses.every(isAcknowledged));
    // Slack retries what was not acknowledged (a 5xx or no answer), with the same event id.
    for (const { responses } of shared) {
      for (const response of responses.filter((r) => !isAcknowledged(r))) {
        await sandbox.driver.retry(response, { retryNum: 1, retryReason: 'http_error' }).catch(() => undefined);
      }
    }
    await sandbox.driver.idle();
    await settleProcesses([parley], 300_000);
    await parley.stop();

    const database = await options.db.open();
    try {
      const saved = new Set(
        (await database.prisma.quotation.findMany({ select: { slackFileId: true } })).map((q) => q.slackFileId),
      );
      const confirmed = await database.prisma.quotationItem.count({
        where: { id: { in: clicked }, reviewState: 'confirmed' },
      });
      const failureNotices = sandbox.model.ephemerals(PEOPLE.buyer.id).length - noticesBefore;
      const approvalSaved =
        (await database.prisma.purchaseOrderApproval.count({ where: { approverSlackUserId: approver } })) > 0;
      const approvalAcknowledged = approvalResponse !== null && submitted(approvalResponse);
      // An approval the modal took (it closed) is lost when it is not stored and nobody told the approver.
      const approverTold = sandbox.model.ephemerals(approver).length > approverNoticesBefore;
      const lostApproval = approvalAcknowledged && !approvalSaved && !approverTold ? 1 : 0;
      // A click acknowledged without being saved is lost unless the buyer was told to click again.
      const lostClicks = Math.max(0, clicked.length - confirmed - failureNotices);
      return {
        clicksSent: Math.min(5, confirms.length),
        clicks: clicked.length,
        clicksSaved: confirmed,
        failureNotices,
        uploads: shared.length,
        acknowledged: acknowledged.length,
        ackedButLost: acknowledged.filter(({ fileId }) => !saved.has(fileId)).length + lostClicks + lostApproval,
        approval: approvalResponse && { acknowledged: approvalAcknowledged, saved: approvalSaved },
        lostAfterRetries: shared.filter(({ fileId }) => !saved.has(fileId)).length,
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      await database.close();
    }
  } finally {
    await parley.stop();
    await sandbox.close();
    await proxy.close();
  }
}

const isAcknowledged = (response: DriverResponse) => response.status >= 200 && response.status < 300;
/**
 * A PO approval Slack took as done: the app answered 200 and the modal went away. Field errors, a notice pushed over
 * the modal ("that did not go through") or any answer that leaves a modal on screen tell the approver it was not.
 */
const submitted = (response: SubmitResult) =>
  isAcknowledged(response) && (response.responseAction === 'close' || response.responseAction === 'clear');
