// One whole negotiation on the Claude path against the fake Messages API, as `bench negotiation` and `bench scale`
// run it: answers at the longest their prompts allow, the decision memo included, every prompt counted with the SDK's
// token counting.
import Anthropic from '@anthropic-ai/sdk';
import type { SupplierProfile } from '../../src/config/business-rules.js';
import { benchNegotiationSetup } from '../sample-baseline.js';
import { env } from '../../src/config/env.js';
import { decide, decisionInputFromState } from '../../src/decision/decide.js';
import { writeDecision } from '../../src/decision/write-decision.js';
import type { LlmUsage } from '../../src/llm/llm.js';
import { createNegotiationAgents } from '../../src/negotiation/agents/create-agents.js';
import { runUnattended } from '../../src/negotiation/run-unattended.js';
import type { Baseline } from '../../src/negotiation/types.js';
import { type FakeMessagesApi, type FakeResponder, startFakeClaude } from '../../test/support/fake-messages-api.js';
import {
  HEALTHY_BRIEF,
  HEALTHY_MESSAGE,
  HEALTHY_REPLY,
  healthyNegotiationReplies,
} from '../../test/support/fake-replies.js';

export function costOf(usage: readonly LlmUsage[]): number {
  return usage.reduce((sum, entry) => sum + entry.costUsd, 0);
}

/**
 * One whole negotiation on the Claude path against the fake Messages API (seed 1, balanced mode), then the decision
 * memo. A brand turn is the call that writes its briefs and message, with the synthesis call that follows it when
 * there is one; a supplier turn is one reply. The buyer declines an early finish so the cost is not understated.
 */
export async function claudeNegotiation(baseline: Baseline, quotedSupplier: SupplierProfile) {
  const usage: LlmUsage[] = [];
  const fallbacks: string[] = [];
  const { api, llm } = await startFakeClaude(atUpperBounds(withDecisionMemo(healthyNegotiationReplies)), {
    fastModel: env.ANTHROPIC_FAST_MODEL,
    reasoningModel: env.ANTHROPIC_REASONING_MODEL,
    onUsage: (entry) => usage.push(entry),
  });
  let counts: number[] = [];
  try {
    const { state } = await runUnattended(
      benchNegotiationSetup(baseline, quotedSupplier),
      createNegotiationAgents(llm, { onFallback: (purpose) => fallbacks.push(purpose) }),
      { answers: 'auto', earlyTermination: 'continue' },
    );
    const decided = decide(decisionInputFromState(state));
    // The memo's call is billed whether or not its figures pass the check; a rejected memo is not a Claude failure.
    if (decided.ok) await writeDecision(decided.numbers, { llm });
    counts = await countPromptTokens(api);
  } finally {
    await api.close();
  }
  const brandTurns: number[] = [];
  const supplierTurns: number[] = [];
  let previous: string | undefined;
  for (const [index, request] of api.requests.entries()) {
    const tool = request.tool_choice?.name;
    const tokens = counts[index] ?? 0;
    if (tool === 'write_turn') brandTurns.push(tokens);
    if (tool === 'send_message') {
      if (previous === 'write_turn' && brandTurns.length > 0) brandTurns.push((brandTurns.pop() ?? 0) + tokens);
      else brandTurns.push(tokens);
    }
    if (tool === 'reply_to_buyer') supplierTurns.push(tokens);
    previous = tool;
  }
  return { usage, requests: api.requests, fallbacks, brandTurns, supplierTurns };
}

/**
 * Every prompt the negotiation sent, counted as the API counts it: the SDK's `messages.countTokens` with the same
 * model, tools, tool choice, system prompt and messages (the fake answers by its billing rule, so the tool-use system
 * prompt the API adds is in the count).
 */
async function countPromptTokens(api: FakeMessagesApi): Promise<number[]> {
  const client = new Anthropic({ apiKey: 'bench', baseURL: api.url, maxRetries: 0 });
  const counts: number[] = [];
  for (const request of api.requests) {
    const counted = await client.messages.countTokens({
      model: request.model,
      system: request.system as Anthropic.MessageCountTokensParams['system'],
      messages: request.messages as Anthropic.MessageParam[],
      tools: request.tools as Anthropic.Tool[] | undefined,
      tool_choice: request.tool_choice as Anthropic.ToolChoice | undefined,
    });
    counts.push(counted.input_tokens);
  }
  return counts;
}

/**
 * Answers as long as their prompts allow, so output tokens are not understated: each brief at its 200 characters,
 * the brand's message at 100 words, a supplier's at 110.
 */
export function atUpperBounds(respond: FakeResponder): FakeResponder {
  const words = (source: string, count: number) => {
    const text = `${source} `.repeat(4).split(/\s+/).filter(Boolean);
    return `${text
      .slice(0, count)
      .join(' ')
      .replace(/[,;:.]?$/, '')}.`;
  };
  const brief = HEALTHY_BRIEF.slice(0, 200);
  return (request, index) => {
    const reply = respond(request, index);
    if (reply.kind !== 'tool' || typeof reply.input !== 'object' || reply.input === null) return reply;
    const input = reply.input as Record<string, unknown>;
    switch (request.tool_choice?.name) {
      case 'write_turn':
        return {
          ...reply,
          input: {
            ...input,
            negotiator: brief,
            riskAnalyst: brief,
            productCost: brief,
            message_text: words(HEALTHY_MESSAGE, 100),
          },
        };
      case 'send_message':
        return { ...reply, input: { ...input, message_text: words(HEALTHY_MESSAGE, 100) } };
      case 'reply_to_buyer':
        return { ...reply, input: { ...input, message_text: words(HEALTHY_REPLY, 110) } };
      default:
        return reply;
    }
  };
}

/**
 * The healthy fake Claude, plus a recommendation memo of plausible length for the decision's call (reasoning tier):
 * a summary, five key points and the trade-offs, ~350 words.
 */
export function withDecisionMemo(respond: FakeResponder): FakeResponder {
  const sentence =
    'Ningbo Everbright Garments offers the lowest landed cost on the full order, while Alpine Premium is capped at ' +
    'sixty percent after its capacity shock and RapidGear Co trades a higher price for the shortest lead time.';
  const memo = {
    summary: `${sentence} The recommendation keeps the award with the supplier whose offer scores best overall.`,
    keyPoints: {
      price: `${sentence} Price carries the largest weight in the balanced mode.`,
      quality: 'Alpine Premium has the best quality record and the lowest defect rate; the others are close enough.',
      leadTime: 'RapidGear Co delivers soonest; the awarded supplier still meets the buyer’s delivery window.',
      cashFlow: 'Paying more of the order later lowers the cash-flow cost; the scores include it for every offer.',
      risk: 'A single supplier is simpler to manage; a split would hedge capacity risk at the cost of the overhead.',
    },
    tradeOffs: `${sentence} Choosing speed or quality instead would cost more than the difference is worth here.`,
    cheapestNotChosenReason: null,
  };
  return (request, index) =>
    request.tool_choice?.name === 'write_decision' ? { kind: 'tool', input: memo } : respond(request, index);
}
