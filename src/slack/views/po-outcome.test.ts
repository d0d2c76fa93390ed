import { describe, expect, it } from 'vitest';
import { buildPoOutcome } from './po-outcome.js';
import { HOSTILE, expectNoInjection, expectNoViolations, visibleText } from '../../../test/support/views.js';

describe('buildPoOutcome', () => {
  it('first of two approvals waits for a second approver', () => {
    const m = buildPoOutcome({
      kind: 'approval',
      poNumber: 'PO-2026-0001',
      approvers: ['U0APPROV1'],
      required: 2,
      waitingFor: [],
    });
    expectNoViolations(m, 'message');
    expect(visibleText(m)).toContain(
      '*PO-2026-0001* approved by <@U0APPROV1> (1 of 2) — waiting for a second approver',
    );
    expect(m.text).toContain('PO-2026-0001 approved by <@U0APPROV1> (1 of 2)');
  });

  it('mentions the approvers who have not approved yet, in the notification text too', () => {
    const m = buildPoOutcome({
      kind: 'approval',
      poNumber: 'PO-2026-0001',
      approvers: ['U0APPROV1'],
      required: 2,
      waitingFor: ['U0APPROV2', 'U0APPROV3'],
    });
    expectNoViolations(m, 'message');
    expect(visibleText(m)).toContain('<@U0APPROV2> and <@U0APPROV3>: *PO-2026-0001* is waiting for your approval.');
    expect(m.text).toContain('<@U0APPROV2> and <@U0APPROV3>: PO-2026-0001 is waiting for your approval.');
    expect(m.text).not.toContain('U0APPROV1>:');
  });

  it('says who can add an approver when nobody is left to give the second approval', () => {
    const m = buildPoOutcome({
      kind: 'approval',
      poNumber: 'PO-2026-0001',
      approvers: ['U0APPROV1'],
      required: 2,
      waitingFor: [],
    });
    expect(visibleText(m)).toContain('No other approver is set');
    expect(visibleText(m)).toContain('`/parley settings`');
  });

  it('names every approver once complete', () => {
    const two = buildPoOutcome({
      kind: 'approval',
      poNumber: 'PO-2026-0001',
      approvers: ['U0APPROV1', 'U0APPROV2'],
      required: 2,
      waitingFor: [],
    });
    expectNoViolations(two, 'message');
    expect(two.text).toBe(':white_check_mark: PO-2026-0001 approved by <@U0APPROV1> and <@U0APPROV2>');
    const one = buildPoOutcome({
      kind: 'approval',
      poNumber: 'PO-2026-0002',
      approvers: ['U0APPROV1'],
      required: 1,
      waitingFor: [],
    });
    expect(visibleText(one)).toContain('*PO-2026-0002* approved by <@U0APPROV1>');
    expect(visibleText(one)).not.toContain('waiting');
  });

  it('shows a rejection with reason and who', () => {
    const m = buildPoOutcome({
      kind: 'rejected',
      poNumber: 'PO-2026-0001',
      by: 'U0APPROV2',
      reason: 'Lead time too long\nfor launch',
    });
    expectNoViolations(m, 'message');
    const text = visibleText(m);
    expect(text).toContain('*PO-2026-0001* rejected by <@U0APPROV2>');
    expect(text).toContain('>Lead time too long\n>for launch');
    expect(m.text).toContain('Lead time too long for launch');
  });

  it('escapes hostile reasons and PO numbers', () => {
    const m = buildPoOutcome({ kind: 'rejected', poNumber: HOSTILE, by: '<!channel>', reason: HOSTILE.repeat(300) });
    expectNoViolations(m, 'message');
    expectNoInjection(m);
    const a = buildPoOutcome({
      kind: 'approval',
      poNumber: HOSTILE,
      approvers: ['<!here>'],
      required: 2,
      waitingFor: ['<!channel>'],
    });
    expectNoViolations(a, 'message');
    expectNoInjection(a);
  });
});
