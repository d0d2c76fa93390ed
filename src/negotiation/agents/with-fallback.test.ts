// Claude with the offline twin behind it, against the fake Messages API (never the real one): a rate limit the SDK
// retries is no fallback; an API that stays overloaded, a timeout or output that stays invalid make that call come
// from the offline twin — and a whole negotiation still completes.
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../../commerce/rng.js';
import { QUOTED_SUPPLIER_DEFAULTS, SIMULATED_SUPPLIERS } from '../../config/business-rules.js';
import {
  startFakeClaude,
  type FakeMessagesApi,
  type FakeReply,
  type FakeResponder,
} from '../../../test/support/fake-messages-api.js';
import { LlmError, type LlmUsage } from '../../llm/llm.js';
import { runUnattended } from '../run-unattended.js';
import { createClaudeBrandAgent } from './claude/brand-agent.js';
import { createClaudeSupplierAgent } from './claude/supplier-agent.js';
import { brandTurnSchema, supplierTurnSchema, type PillarBriefs } from './interfaces.js';
import { createOfflineBrandAgent } from './offline/brand-agent.js';
import { createOfflineSupplierAgent } from './offline/supplier-agent.js';
import {
  HEALTHY_MESSAGE,
  HEALTHY_REPLY,
  healthyNegotiationReplies as healthy,
} from '../../../test/support/fake-replies.js';
import { BASELINE, brandAction, brandContext, supplierContext } from '../../../test/support/agents.js';
import { brandWithFallback, FALLBACK_PURPOSES, supplierWithFallback, type FallbackPurpose } from './with-fallback.js';

const overloaded: FakeReply = { kind: 'error', status: 529, type: 'overloaded_error' };
const BRIEFS: PillarBriefs = { negotiator: 'n', riskAnalyst: 'r', productCost: 'p' };

/** A supplier context in round 2 with an ask, with its own rng so the offline twin can be replayed exactly. */
const supplierTurnContext = () =>
  supplierContext('SUP-003', {
    round: 2,
    rng: createRng(42),
    latestBrandMessage: { text: 'Can you reach $40,000?', action: brandAction({ round: 2, targetTotal: 40_000 }) },
  });
const brandTurnContext = () => brandContext('SUP-001', { rng: createRng(42) });

describe('Claude agents with the offline twin behind them', () => {
  let api: FakeMessagesApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  async function agents(respond: FakeResponder, options: { timeoutMs?: number; maxRetries?: number } = {}) {
    const fake = await startFakeClaude(respond, options);
    api = fake.api;
    const fallbacks: { purpose: FallbackPurpose; error: unknown }[] = [];
    const onFallback = (purpose: FallbackPurpose, error: unknown) => fallbacks.push({ purpose, error });
    return {
      api: fake.api,
      fallbacks,
      brand: brandWithFallback(createClaudeBrandAgent(fake.llm), createOfflineBrandAgent(), { onFallback }),
      supplier: supplierWithFallback(createClaudeSupplierAgent(fake.llm), createOfflineSupplierAgent(), { onFallback }),
    };
  }

  it('rides out a 429: the SDK retries, Claude answers, no fallback', async () => {
    const { supplier, fallbacks, api } = await agents(
      (request, index) =>
        index === 0 ? { kind: 'error', status: 429, type: 'rate_limit_error' } : healthy(request, index),
      { maxRetries: 2 },
    );
    const turn = await supplier.respond(supplierTurnContext());
    expect(turn.message_text).toBe(HEALTHY_REPLY);
    expect(api.requests).toHaveLength(2);
    expect(fallbacks).toEqual([]);
  });

  it('answers every call from the offline twin when the API is overloaded on every attempt (529)', async () => {
    const { brand, supplier, fallbacks, api } = await agents(() => overloaded, { maxRetries: 2 });
    const offlineBrand = createOfflineBrandAgent();
    const offlineSupplier = createOfflineSupplierAgent();

    const rfq = await brand.rfq(brandContext('SUP-002', { rng: createRng(42) }));
    expect(rfq).toEqual(await offlineBrand.rfq(brandContext('SUP-002', { rng: createRng(42) })));
    const briefs = await brand.pillars(brandTurnContext());
    expect(briefs).toEqual(await offlineBrand.pillars(brandTurnContext()));
    const message = await brand.synthesize(brandTurnContext(), briefs);
    expect(brandTurnSchema.parse(message)).toEqual(await offlineBrand.synthesize(brandTurnContext(), briefs));
    const reply = await supplier.respond(supplierTurnContext());
    expect(supplierTurnSchema.parse(reply)).toEqual(await offlineSupplier.respond(supplierTurnContext()));

    expect(fallbacks.map((fallback) => fallback.purpose)).toEqual([
      FALLBACK_PURPOSES.rfq,
      FALLBACK_PURPOSES.pillars,
      FALLBACK_PURPOSES.synthesize,
      FALLBACK_PURPOSES.respond,
    ]);
    for (const { error } of fallbacks) expect(error).toBeInstanceOf(LlmError);
    expect(String(fallbacks[0]?.error)).toContain('529');
    // Three attempts (the SDK's two retries) per call: rfq, the turn's briefs, the synthesis (its briefs came from the
    // twin), the supplier.
    expect(api.requests).toHaveLength(3 * 4);
  });

  it('falls back when Claude does not answer in time', async () => {
    const { supplier, fallbacks } = await agents(() => ({ kind: 'hang', ms: 3_000 }), { timeoutMs: 150 });
    const started = performance.now();
    const reply = await supplier.respond(supplierTurnContext());
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(reply).toEqual(await createOfflineSupplierAgent().respond(supplierTurnContext()));
    expect(fallbacks).toHaveLength(1);
    expect(String(fallbacks[0]?.error)).toMatch(/timed? ?out/i);
  });

  it('falls back when the output stays invalid after the validation retry', async () => {
    const { brand, supplier, fallbacks, api } = await agents(() => ({ kind: 'tool', input: { nonsense: true } }));
    const message = await brand.synthesize(brandTurnContext(), BRIEFS);
    expect(message).toEqual(await createOfflineBrandAgent().synthesize(brandTurnContext(), BRIEFS));
    await supplier.respond(supplierTurnContext());
    expect(api.requests).toHaveLength(4);
    expect(fallbacks.map((fallback) => fallback.purpose)).toEqual([
      FALLBACK_PURPOSES.synthesize,
      FALLBACK_PURPOSES.respond,
    ]);
    expect(String(fallbacks[0]?.error)).toContain('invalid output after 2 attempts');
  });

  it('falls back on a body that is not JSON', async () => {
    const { supplier, fallbacks } = await agents(() => ({ kind: 'garbage' }));
    await expect(supplier.respond(supplierTurnContext())).resolves.toEqual(
      await createOfflineSupplierAgent().respond(supplierTurnContext()),
    );
    expect(fallbacks).toHaveLength(1);
  });

  it('keeps what Claude managed: failed briefs come from the twin, the synthesis still from Claude', async () => {
    const { brand, fallbacks } = await agents((request, index) =>
      request.tool_choice?.name === 'write_turn' ? overloaded : healthy(request, index),
    );
    const briefs = await brand.pillars(brandTurnContext());
    const message = await brand.synthesize(brandTurnContext(), briefs);
    expect(message.message_text).toBe(HEALTHY_MESSAGE);
    expect(fallbacks.map((fallback) => fallback.purpose)).toEqual([FALLBACK_PURPOSES.pillars]);
  });

  describe('a whole negotiation through the engine', () => {
    const setup = {
      seed: 7,
      brandName: 'Valden Outdoor',
      mode: 'balanced' as const,
      maxRounds: 4,
      mandate: { targetTotal: null, walkAwayTotal: null },
      buyerNotes: null,
      baseline: BASELINE,
      profiles: [QUOTED_SUPPLIER_DEFAULTS, ...SIMULATED_SUPPLIERS],
    };

    async function negotiate(respond: FakeResponder) {
      const usage: LlmUsage[] = [];
      const fake = await startFakeClaude(respond, { onUsage: (entry) => usage.push(entry) });
      api = fake.api;
      const fallbacks: string[] = [];
      const options = { onFallback: (purpose: string) => fallbacks.push(purpose) };
      const run = await runUnattended(
        setup,
        {
          brand: brandWithFallback(createClaudeBrandAgent(fake.llm), createOfflineBrandAgent(), options),
          supplier: () =>
            supplierWithFallback(createClaudeSupplierAgent(fake.llm), createOfflineSupplierAgent(), options),
        },
        { answers: 'auto' },
      );
      return { run, usage, fallbacks };
    }

    it('completes on Claude alone when the API is healthy', async () => {
      const { run, usage, fallbacks } = await negotiate(healthy);
      expect(run.state.status).toBe('completed');
      expect(fallbacks).toEqual([]);
      expect(usage.every((entry) => entry.outcome === 'ok')).toBe(true);
      const messages = run.events.filter((event) => event.type === 'message');
      expect(messages.length).toBeGreaterThanOrEqual(3 * 2 * 2);
      expect(messages.some((event) => event.text === HEALTHY_MESSAGE)).toBe(true);
    });

    it('still completes, turn by turn offline, when every Claude call fails', async () => {
      const { run, fallbacks } = await negotiate(() => overloaded);
      expect(run.state.status).toBe('completed');
      expect(fallbacks.length).toBeGreaterThan(0);
      const offline = await runUnattended(
        setup,
        { brand: createOfflineBrandAgent(), supplier: () => createOfflineSupplierAgent() },
        { answers: 'auto' },
      );
      // The twins draw from the same per-step rng the Claude path never touches: the same negotiation, word for word.
      expect(run.events).toEqual(offline.events);
    });
  });
});
