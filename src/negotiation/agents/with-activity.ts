// Tells someone what the agents are doing while a call runs — the thread's "Parley is waiting for RapidGear Co's
// reply…" — without the engine knowing: the engine calls the agents it is given, and these are the same agents with a
// word said before each call and taken back after it. What is said is data (who, doing what), worded by the Slack layer.
import type { EngineAgents } from '../engine.js';
import type { BrandAgent, SupplierAgent } from './interfaces.js';

export type AgentActivity =
  | { kind: 'rfq' | 'pillars' | 'synthesize' | 'supplier_reply'; supplierName: string }
  /** The decision writer (Claude when there is a key) wording the recommendation. */
  | { kind: 'decision' };

/** Told `activity` before a call and `null` once it has ended, however it ended. */
export type ActivityListener = (activity: AgentActivity | null) => Promise<void>;

async function during<T>(listener: ActivityListener, activity: AgentActivity, call: () => Promise<T>): Promise<T> {
  await listener(activity);
  try {
    return await call();
  } finally {
    await listener(null);
  }
}

export function withActivity(agents: EngineAgents, listener: ActivityListener): EngineAgents {
  const { brand } = agents;
  const announced: BrandAgent = {
    rfq: (context) => during(listener, { kind: 'rfq', supplierName: context.supplier.name }, () => brand.rfq(context)),
    pillars: (context) =>
      during(listener, { kind: 'pillars', supplierName: context.supplier.name }, () => brand.pillars(context)),
    synthesize: (context, briefs) =>
      during(listener, { kind: 'synthesize', supplierName: context.supplier.name }, () =>
        brand.synthesize(context, briefs),
      ),
  };
  return {
    brand: announced,
    supplier(code: string): SupplierAgent {
      const agent = agents.supplier(code);
      return {
        respond: (context) =>
          during(listener, { kind: 'supplier_reply', supplierName: context.profile.name }, () =>
            agent.respond(context),
          ),
      };
    },
  };
}
