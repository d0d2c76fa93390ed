import { describe, expect, it } from 'vitest';
import { eventTeamId, eventUserTeamId, interactionTeamId, interactionUserTeamId, isOutsider } from './team.js';

const HOME = 'T0HOME0001';
const HOST = 'T0HOST0001';
const EXTERNAL = 'T0EXTERNAL';

describe('eventTeamId', () => {
  it('takes the installation the event was delivered to, not the top-level team (Slack Connect: the host org)', () => {
    const body = {
      team_id: HOST,
      context_team_id: HOME,
      authorizations: [{ team_id: HOME, user_id: 'U0BOT', is_bot: true }],
      event: { type: 'message', user_team: EXTERNAL },
    };
    expect(eventTeamId(body)).toBe(HOME);
    expect(eventTeamId({ team_id: HOST, context_team_id: HOME })).toBe(HOME);
  });

  it('falls back to team_id for an envelope without context, and to null without any team', () => {
    expect(eventTeamId({ team_id: HOME, authorizations: [{ team_id: null }] })).toBe(HOME);
    expect(eventTeamId({ team_id: '' })).toBeNull();
    expect(eventTeamId(null)).toBeNull();
    expect(eventTeamId({ team_id: 42 })).toBeNull();
  });
});

describe('interactionTeamId', () => {
  it('prefers the team a modal was installed in, then the payload’s team, then the user’s', () => {
    const view = { team: { id: EXTERNAL }, user: { team_id: EXTERNAL }, view: { app_installed_team_id: HOME } };
    expect(interactionTeamId(view)).toBe(HOME);
    expect(interactionTeamId({ team: { id: HOME }, user: { id: 'U1', team_id: EXTERNAL } })).toBe(HOME);
    // Org-wide installs send `team: null`.
    expect(interactionTeamId({ team: null, user: { id: 'U1', team_id: HOME } })).toBe(HOME);
    expect(interactionTeamId({ user: { id: 'U1' } })).toBeNull();
  });
});

describe('the acting person’s team', () => {
  it('reads user.team_id of an interaction and user_team of a message', () => {
    expect(interactionUserTeamId({ team: { id: HOME }, user: { id: 'U1', team_id: EXTERNAL } })).toBe(EXTERNAL);
    expect(interactionUserTeamId({ team: { id: HOME }, user: { id: 'U1' } })).toBeNull();
    expect(eventUserTeamId({ type: 'message', user_team: EXTERNAL })).toBe(EXTERNAL);
    expect(eventUserTeamId({ type: 'message' })).toBeNull();
  });

  it('calls someone an outsider only when their team is known and not the workspace’s', () => {
    expect(isOutsider(EXTERNAL, HOME)).toBe(true);
    expect(isOutsider(HOME, HOME)).toBe(false);
    expect(isOutsider(null, HOME)).toBe(false);
    expect(isOutsider('', HOME)).toBe(false);
  });
});
