// The workspace's settings over the environment's defaults: the disclosure of competitors stays off unless set.
import { describe, expect, it } from 'vitest';
import { resolveSettings } from './workspace-settings.js';

const env = { APPROVER_SLACK_IDS: ['U0APPROV1'], PO_DUAL_APPROVAL_ABOVE_USD: 50_000 };

describe('resolveSettings', () => {
  it('keeps competitors anonymous unless an admin allowed naming them', () => {
    expect(resolveSettings({}, env).discloseCompetitors).toBe(false);
    expect(resolveSettings(null, env).discloseCompetitors).toBe(false);
    expect(resolveSettings({ discloseCompetitors: true }, env).discloseCompetitors).toBe(true);
    // A corrupt column falls back to the defaults, the safe side included.
    expect(resolveSettings({ discloseCompetitors: 'yes' }, env).discloseCompetitors).toBe(false);
  });
});
