// Twenty people opening the App Home every two seconds (the large story) each queued a views.publish the poster sent,
// though nothing had changed. Through the real receiver and the stand-in: the Home goes out at the first open, not
// again while Slack shows that very view (Parley's hash of it comes back in the event's view), and again once what it
// lists changed.
import { describe, expect, it } from 'vitest';
import { useSandboxedParley } from './harness.js';
import { PEOPLE, TEAM_ID } from '../../dev/slack-stand-in/sandboxed-parley.js';

const running = useSandboxedParley();

const publishesTo = (userId: string) =>
  running.parley.sandbox.model
    .callsTo('views.publish')
    .filter((call) => call.ok && JSON.stringify(call.args).includes(`"user_id":"${userId}"`)).length;

async function openHome(userId: string) {
  const response = await running.parley.sandbox.driver.openHome(userId);
  expect(response.status).toBe(200);
  await running.parley.settle();
}

describe('the App Home, opened again and again', () => {
  it('is published once while nothing it shows changes, and again when something does', async () => {
    const buyer = PEOPLE.buyer.id;
    await openHome(buyer);
    expect(publishesTo(buyer)).toBe(1);
    for (let i = 0; i < 3; i++) await openHome(buyer);
    expect(publishesTo(buyer)).toBe(1);
    expect(JSON.stringify(running.parley.sandbox.model.home(buyer)?.view)).toContain('Your active negotiations (0)');

    // The buyer's negotiation starts: the Home lists it.
    const { prisma } = running.db;
    const workspace = await prisma.workspace.findUniqueOrThrow({ where: { slackTeamId: TEAM_ID } });
    const quotation = await prisma.quotation.create({
      data: {
        workspaceId: workspace.id,
        status: 'negotiating',
        slackFileId: 'F0HOMEONCE',
        slackChannelId: 'C0SOURCING',
        uploadedBySlackUserId: buyer,
        fileName: 'home-once.xlsx',
      },
    });
    await prisma.negotiation.create({
      data: {
        workspaceId: workspace.id,
        quotationId: quotation.id,
        status: 'negotiating',
        rngSeed: 1,
        startedBySlackUserId: buyer,
      },
    });
    await openHome(buyer);
    expect(publishesTo(buyer)).toBe(2);
    expect(JSON.stringify(running.parley.sandbox.model.home(buyer)?.view)).toContain('home-once.xlsx');
    await openHome(buyer);
    expect(publishesTo(buyer)).toBe(2);
  });
});
