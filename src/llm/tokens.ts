// Token counts estimated from text, for cost estimates and prompt budgets where the API's own count is not at hand
// (the fake Messages API, the benchmark, a prompt's layout). Characters ÷ 4 — the usual rule — is English prose
// through an older tokenizer: Claude's runs at about 3.5 characters a token on prose and far fewer on what Parley's
// prompts are full of (JSON schemas, pipe tables of prices, SKU codes), so ÷ 4 understated them by a third or more.
//
// The estimate counts by character class, leaning high so a budget checked with it holds on the real API:
// - a run of letters: one token per 4 letters, rounded up ("the" 1, "supplier" 2, "negotiation" 3);
// - a run of digits: one token per 3 digits ("128,203.00" is 128 , 203 . 00: 5 tokens);
// - a run of ASCII punctuation: one token per 2 characters (JSON's `":"` is 2);
// - whitespace: free before a word, one token for a line break or a run of spaces;
// - any other character (·, ≤, —, CJK): one token each.
// On English prose that gives ~3.4 characters a token, on a JSON tool schema ~2.4 and on a price table ~2.3.

const PIECES = /[A-Za-z]+|\d+|\s+|[!-/:-@[-`{-~]+|[^\p{ASCII}]/gu;

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(PIECES)) {
    const first = piece.charCodeAt(0);
    if (isLetter(first)) tokens += Math.ceil(piece.length / 4);
    else if (first >= 48 && first <= 57) tokens += Math.ceil(piece.length / 3);
    else if (/^\s/.test(piece)) tokens += piece.includes('\n') || piece.length > 1 ? 1 : 0;
    else if (first < 128) tokens += Math.ceil(piece.length / 2);
    else tokens += 1;
  }
  return tokens;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * The system prompt Anthropic adds to every request that carries tools, in tokens, by `tool_choice` (Claude 4
 * models, per Anthropic's tool-use pricing table): billed as input and part of the prompt's prefix, though no one
 * writes it. Parley forces its tool (`tool`).
 */
export const TOOL_USE_SYSTEM_PROMPT_TOKENS = { auto: 346, none: 346, any: 313, tool: 313 } as const;

export function toolUseSystemPromptTokens(toolChoice: string | undefined): number {
  if (toolChoice === 'any' || toolChoice === 'tool') return TOOL_USE_SYSTEM_PROMPT_TOKENS[toolChoice];
  return TOOL_USE_SYSTEM_PROMPT_TOKENS.auto;
}
