// The workspace's settings over the defaults: the disclosure of competitors stays off unless set, and approvers are
// the workspace's own — never the environment's.
import { describe, expect, it, vi } from 'vitest';
import { mayChangeSettings, resolveSettings, type SlackDirectory } from './workspace-settings.js';

const env = { PO_DUAL_APPROVAL_ABOVE_USD: 50_000 };

describe('resolveSettings', () => {
  it('keeps competitors anonymous unless an admin allowed naming them', () => {
    expect(resolveSettings({}, env).discloseCompetitors).toBe(false);
    expect(resolveSettings(null, env).discloseCompetitors).toBe(false);
    expect(resolveSettings({ discloseCompetitors: true }, env).discloseCompetitors).toBe(true);
    // A corrupt column falls back to the defaults, the safe side included.
    expect(resolveSettings({ discloseCompetitors: 'yes' }, env).discloseCompetitors).toBe(false);
  });

  it('has no approvers until the workspace stores some, and the environment’s amount until it sets its own', () => {
    expect(resolveSettings({}, env)).toMatchObject({ approvers: [], dualApprovalAboveUsd: 50_000 });
    expect(resolveSettings({ approvers: ['U0SAM00001'], dualApprovalAboveUsd: 900 }, env)).toMatchObject({
      approvers: ['U0SAM00001'],
      dualApprovalAboveUsd: 900,
    });
  });
});

describe('mayChangeSettings', () => {
  const workspace = {
    id: 'ws1',
    slackTeamId: 'T0OURS0001',
    settings: resolveSettings({ approvers: ['U0SAM00001'] }, env),
  };
  const directory = (admins: string[]) => {
    const isWorkspaceAdmin = vi.fn<SlackDirectory['isWorkspaceAdmin']>(async (_ws, user) => admins.includes(user));
    return { isWorkspaceAdmin };
  };

  it('lets approvers change them without asking Slack', async () => {
    const slack = directory([]);
    expect(await mayChangeSettings(workspace, 'U0SAM00001', slack)).toBe(true);
    expect(slack.isWorkspaceAdmin).not.toHaveBeenCalled();
  });

  it('lets a Slack workspace admin change them, and nobody else — not even while there is no approver', async () => {
    expect(await mayChangeSettings(workspace, 'U0ADMIN001', directory(['U0ADMIN001']))).toBe(true);
    expect(await mayChangeSettings(workspace, 'U0JO000001', directory(['U0ADMIN001']))).toBe(false);
    const empty = { id: 'ws1', slackTeamId: 'T0OURS0001', settings: resolveSettings({}, env) };
    expect(await mayChangeSettings(empty, 'U0JO000001', directory([]))).toBe(false);
  });
});
