// The token estimate every cost figure and prompt budget rests on: it must not undercount what Parley sends.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolInputSchema } from './llm.js';
import { estimateTokens, toolUseSystemPromptTokens } from './tokens.js';

const PROSE =
  'Thanks for the update on the parka and the other lines. We are comparing three offers this week and your price ' +
  'is competitive, but the payment schedule matters to us as much as the total. If you can move to 30/70 on the ' +
  'order as it stands and confirm the 25-day lead time in writing, I can recommend your offer to our buyer.';
const TABLE = [
  'SKU(Description) | qty | quoted USD | floor | ceiling',
  'MC004-STB-L(Sawtooth Down Parka) | 130 | 79.10 | 71.19 | 110.74',
  'WJ008-DRW-S(Ranger Insulated Jacket) | 240 | 56.66 | 50.99 | 79.32',
].join('\n');

describe('estimateTokens', () => {
  it('counts prose at no more than Claude’s ~3.5 characters a token, and structured text denser', () => {
    const ratio = (text: string) => text.length / estimateTokens(text);
    expect(ratio(PROSE)).toBeLessThanOrEqual(3.5);
    expect(ratio(PROSE)).toBeGreaterThan(2.8);
    const schema = JSON.stringify(
      toolInputSchema(z.object({ action: z.enum(['A', 'B']), text: z.string().nullish() })),
    );
    expect(ratio(schema)).toBeLessThan(3);
    expect(ratio(TABLE)).toBeLessThan(3);
    // Every one of these is more than the old characters ÷ 4.
    for (const text of [PROSE, schema, TABLE]) expect(estimateTokens(text)).toBeGreaterThan(text.length / 4);
  });

  it('counts numbers by groups of digits, symbols one each, and nothing for nothing', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('128,203.00')).toBe(5);
    expect(estimateTokens('≤ 60% · 25 d')).toBe(6);
    expect(estimateTokens('negotiation')).toBe(3);
  });

  it('knows the tool-use system prompt a forced tool costs', () => {
    expect(toolUseSystemPromptTokens('tool')).toBe(313);
    expect(toolUseSystemPromptTokens('auto')).toBe(346);
    expect(toolUseSystemPromptTokens(undefined)).toBe(346);
  });
});
