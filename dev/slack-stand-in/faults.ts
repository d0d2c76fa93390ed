// Injected Web API failures: rate limits, server errors, slow answers and Slack-level errors, for one method or all.
// Randomness comes from a seeded generator, so a benchmark that fails 10% of calls fails the same calls every run.
import { createRng, type Rng } from '../../src/commerce/rng.js';
import type { Json } from './model.js';

export type Fault =
  | { status: 429; retryAfterSeconds: number }
  | { status: 500 | 502 | 503 }
  /**
   * An answer that comes only after `hangMs`, as when Slack is slow or a client's timeout fires first. When the call
   * takes effect: `'last'` (default) just before the late answer, a slow Slack that still succeeds; `'first'` at once,
   * so the message exists while the client waits (a timeout that still reached Slack); `'never'`: it does not, and
   * the connection is dropped without an answer.
   */
  | { hangMs: number; apply?: 'first' | 'last' | 'never' }
  /** An HTTP 200 answer `{ ok: false, error }`, e.g. `channel_not_found` or `ratelimited`. */
  | { error: string };

export interface FaultScope {
  /** Apply to this many matching calls, then stop (default: every matching call). */
  times?: number;
  /** Apply to each matching call with this probability (default 1). */
  probability?: number;
  /** Match only calls whose arguments (JSON fields decoded, token removed) pass this test, e.g. one message's text. */
  when?: (args: Json) => boolean;
}

interface Rule {
  method: string;
  fault: Fault;
  remaining: number;
  probability: number;
  when: ((args: Json) => boolean) | undefined;
}

export function describeFault(fault: Fault): string {
  if ('hangMs' in fault) {
    const apply = fault.apply === 'first' ? ', applied at once' : fault.apply === 'never' ? ', never applied' : '';
    return `hang ${fault.hangMs}ms${apply}`;
  }
  if ('error' in fault) return `error ${fault.error}`;
  return fault.status === 429 ? `429 retry-after ${fault.retryAfterSeconds}s` : `${fault.status}`;
}

export class Faults {
  private rules: Rule[] = [];
  private rng: Rng;
  private readonly seed: number;

  constructor(seed = 1) {
    this.seed = seed;
    this.rng = createRng(seed);
  }

  /** Adds a rule; rules are tried in the order they were set, and the first that fires wins. */
  set(method: string, fault: Fault, scope: FaultScope = {}): this {
    const probability = scope.probability ?? 1;
    if (!(probability >= 0 && probability <= 1)) throw new Error(`probability must be within 0..1, got ${probability}`);
    if (scope.times !== undefined && !(Number.isInteger(scope.times) && scope.times > 0)) {
      throw new Error(`times must be a positive integer, got ${scope.times}`);
    }
    this.rules.push({
      method,
      fault,
      remaining: scope.times ?? Number.POSITIVE_INFINITY,
      probability,
      when: scope.when,
    });
    return this;
  }

  /** Removes every rule and restarts the random sequence, so a cleared sandbox behaves like a fresh one. */
  clear(): void {
    this.rules = [];
    this.rng = createRng(this.seed);
  }

  /** The fault for this call, if any; consumes one of the rule's `times`. */
  take(method: string, args: Json = {}): Fault | undefined {
    for (const rule of this.rules) {
      if (rule.remaining <= 0 || (rule.method !== '*' && rule.method !== method)) continue;
      if (rule.when !== undefined && !rule.when(args)) continue;
      // Certain rules draw nothing, so adding one does not shift the random sequence of the others.
      if (rule.probability < 1 && this.rng.next() >= rule.probability) continue;
      rule.remaining -= 1;
      return rule.fault;
    }
    return undefined;
  }

  /** Rules still able to fire. */
  active(): { method: string; fault: Fault; remaining: number }[] {
    return this.rules
      .filter((r) => r.remaining > 0)
      .map(({ method, fault, remaining }) => ({ method, fault, remaining }));
  }
}
