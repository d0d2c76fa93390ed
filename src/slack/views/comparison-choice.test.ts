import { describe, expect, it } from 'vitest';
import { buildComparisonChoice } from './comparison-choice.js';
import { blockKitViolations } from './limits.js';

describe('buildComparisonChoice', () => {
  it('one button per supplier, 25 to an actions block, within Block Kit limits, names as plain text', () => {
    const suppliers = Array.from({ length: 30 }, (_, i) => `Supplier ${i + 1} <!channel> ${'x'.repeat(80)}`);
    const message = buildComparisonChoice({ quotationId: 'q1', fileName: 'bids <@U1>.xlsx', suppliers });
    expect(blockKitViolations(message, 'message')).toEqual([]);
    const rows = message.blocks.filter((b) => b.type === 'actions');
    expect(rows.map((b) => (b.type === 'actions' ? b.elements.length : 0))).toEqual([25, 5]);
    const texts = JSON.stringify(message);
    expect(texts).not.toContain('<@U1>');
    expect(message.text).toContain('comparison of 30 suppliers');
  });
});
