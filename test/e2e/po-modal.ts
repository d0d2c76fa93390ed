// The PO modal as an approver opens it in the end-to-end tests: from the decision's "Review and approve PO" button in a
// story's thread.
import { expect } from 'vitest';
import { buttonsIn } from '../../dev/slack-stand-in/play-story.js';
import { CHANNEL, type SandboxedParley } from '../../dev/slack-stand-in/sandboxed-parley.js';
import { ACTION } from '../../src/slack/ids.js';

/** `who` clicks the decision's button and waits until the modal is the PO (not the loading view). */
export async function openPoModal(parley: SandboxedParley, who: string, threadTs: string) {
  const { driver, model } = parley.sandbox;
  const decision = model
    .thread(CHANNEL.id, threadTs)
    .find((m) => buttonsIn(m).some((b) => b.actionId === ACTION.decisionOpenPo));
  const open = decision && buttonsIn(decision).find((b) => b.actionId === ACTION.decisionOpenPo);
  if (!decision || !open) throw new Error('no decision with a PO button');
  const response = await driver.clickButton(who, { channel: CHANNEL.id, ts: decision.ts }, open.actionId, {
    value: open.value,
  });
  expect(response.status).toBe(200);
  return parley.sandbox.waitFor(
    () => model.openViews(who).find((view) => view.history.length > 0 && view.view.submit !== undefined),
    { what: 'the PO modal' },
  );
}
