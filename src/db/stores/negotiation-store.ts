// Where a negotiation lives between steps: the engine's checkpoint and everything each step said and offered, written
// in one transaction per step, guarded by a lease (which process runs it) and an optimistic checkpoint version (so a
// step computed twice — a crash after the write, a second instance — is stored once). A process that dies at any
// point leaves either the step before or the step after; another process resumes from there.
import type { SupplierProfile } from '../../config/business-rules.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { toJsonColumn } from '../json.js';
import { log } from '../../log.js';
import type { WorkspaceDb, WorkspaceTx } from '../scoped.js';
import { jobLeaseTakeover } from '../../jobs/job-lease.js';
import { checkpointWrite, type CheckpointWrite, encodeFor, readCheckpoint } from './checkpoint-store.js';
import {
  advance,
  answer,
  chooseCurveballStrategy,
  closeWithoutReply,
  editBrandMessage,
  createNegotiation,
  decideEarlyTermination,
  type EngineAgents,
  type NegotiationEvent,
  type NegotiationSetup,
  type NegotiationState,
  receiveSupplierTurn,
  type StepResult,
} from '../../negotiation/engine.js';
import type { AgentTurn } from '../../negotiation/types.js';

export const LEASE_MS = 60_000;

export interface StartNegotiationOptions {
  quotationId: string;
  startedBySlackUserId: string;
  setup: NegotiationSetup;
  /** The database supplier behind each engine role (SUP-001 is the quotation's own supplier). */
  supplierIds: Record<string, string>;
  questionBudget: number;
  /** Business days a connected supplier has to answer each message (default 2). */
  supplierReplyDays?: number;
}

export class StaleStepError extends Error {
  override name = 'StaleStepError';
}

/** The run's lease went to another process (its own expired while a step ran): this run must stop, saving nothing. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/** A step's other writes, in its transaction: the Slack outbox rows that report its events. */
export type AlsoWrite = (tx: WorkspaceTx, events: NegotiationEvent[], state: NegotiationState) => Promise<void>;

/**
 * A negotiation's start, worked out before its transaction: the engine's first state, its checkpoint encoded (hashed
 * line sets at 3,000 lines) and its events' rows planned, so the transaction only writes — on PGlite it holds the one
 * connection the acknowledgements wait for. `write` stores it and returns the new negotiation's id; `committed` is
 * called once that transaction committed.
 */
export interface PreparedStart {
  state: NegotiationState;
  events: NegotiationEvent[];
  write(tx: WorkspaceTx): Promise<string>;
  committed(negotiationId: string): void;
}

export function prepareNegotiationStart(db: WorkspaceDb, options: StartNegotiationOptions): PreparedStart {
  const workspaceId = db.$workspaceId;
  const { state, events } = createNegotiation({ ...options.setup, questionBudget: options.questionBudget });
  const checkpoint = checkpointWrite(workspaceId, null, -1, state);
  // The events' rows need the negotiation's id, which its insert gives: read when they are written.
  let negotiationId: string | null = null;
  const idOf = () => {
    if (negotiationId === null) throw new Error('A start’s events are written after its negotiation');
    return negotiationId;
  };
  const planned = planEvents(workspaceId, idOf, state, events, checkpoint);
  const roles = state.profiles.map((profile: SupplierProfile) => ({
    code: profile.code,
    supplierId: options.supplierIds[profile.code] ?? missing(profile.code),
  }));
  return {
    state,
    events,
    async write(tx) {
      const negotiation = await tx.negotiation.create({
        data: {
          workspaceId,
          quotationId: options.quotationId,
          mode: state.mode,
          status: 'negotiating',
          maxRounds: state.maxRounds,
          questionBudget: options.questionBudget,
          ...(options.supplierReplyDays === undefined ? {} : { supplierReplyDays: options.supplierReplyDays }),
          targetTotal: state.mandate.targetTotal,
          walkAwayTotal: state.mandate.walkAwayTotal,
          notes: state.buyerNotes,
          rngSeed: state.seed,
          ...checkpoint.columns,
          startedBySlackUserId: options.startedBySlackUserId,
          startedAt: new Date(),
        },
        select: { id: true },
      });
      negotiationId = negotiation.id;
      // The rows' ids as the insert returns them: nothing is read back.
      const created = await tx.negotiationSupplier.createManyAndReturn({
        data: roles.map((role) => ({ workspaceId, negotiationId: negotiation.id, supplierId: role.supplierId })),
        select: { id: true, supplierId: true },
      });
      const suppliers: SupplierRows = roles.flatMap((role) => {
        const row = created.find((c) => c.supplierId === role.supplierId);
        return row ? [{ id: row.id, supplier: { code: role.code } }] : [];
      });
      await writeEvents(tx, state, planned, suppliers);
      await checkpoint.finish(tx, negotiation.id, { fresh: true });
      return negotiation.id;
    },
    committed(negotiationId) {
      checkpoint.committed(negotiationId);
    },
  };
}

export async function startNegotiation(db: WorkspaceDb, options: StartNegotiationOptions, alsoWrite?: AlsoWrite) {
  const start = prepareNegotiationStart(db, options);
  const negotiationId = await db.$transaction(async (tx) => {
    const id = await start.write(tx);
    await alsoWrite?.(tx, start.events, start.state);
    return id;
  });
  start.committed(negotiationId);
  return { negotiationId, state: start.state, events: start.events };
}

function missing(code: string): never {
  throw new Error(`No database supplier for ${code}`);
}

/**
 * Takes the lease if it is free, expired, or already ours — or, for a pg-boss job's attempt, held by an earlier
 * attempt, which pg-boss has already given up on (src/jobs/job-lease.ts). True when this process may run it.
 */
export async function acquireLease(db: WorkspaceDb, negotiationId: string, owner: string, now = new Date()) {
  const { count } = await db.negotiation.updateMany({
    where: {
      id: negotiationId,
      OR: [
        { leaseOwner: null },
        { leaseOwner: owner },
        { leaseExpiresAt: { lt: now } },
        ...jobLeaseTakeover('leaseOwner', owner),
      ],
    },
    data: { leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + LEASE_MS) },
  });
  return count === 1;
}

/**
 * Extends the lease only while this process still holds it: false when another process has taken it (ours expired
 * while a step ran), and then this process must stop — two runs would pay for the same agent turns.
 */
export async function renewLease(db: WorkspaceDb, negotiationId: string, owner: string, now = new Date()) {
  const { count } = await db.negotiation.updateMany({
    where: { id: negotiationId, leaseOwner: owner },
    data: { leaseExpiresAt: new Date(now.getTime() + LEASE_MS) },
  });
  return count === 1;
}

export async function releaseLease(db: WorkspaceDb, negotiationId: string, owner: string) {
  await db.negotiation.updateMany({
    where: { id: negotiationId, leaseOwner: owner },
    data: { leaseOwner: null, leaseExpiresAt: null },
  });
}

/**
 * The latest checkpoint and its version. The state is frozen: it is the one the next step's delta is taken from, so it
 * must not be edited in place (the engine copies on write).
 */
export async function loadCheckpoint(db: WorkspaceDb, negotiationId: string) {
  return readCheckpoint(db, negotiationId);
}

/**
 * Saves one step: the new checkpoint (only over the version it was computed from) and the step's messages, offers
 * and questions. `alsoWrite` runs in the same transaction (the Slack outbox rows for the step's events).
 */
export async function saveStep(
  db: WorkspaceDb,
  negotiationId: string,
  fromVersion: number,
  result: StepResult,
  alsoWrite?: AlsoWrite,
  /** The engine's run: saved only while this owner still holds the lease (a buyer's click holds none). */
  leaseOwner?: string,
): Promise<number> {
  const { state, events } = result;
  // Only what the step changed is written (a delta, with the line sets it adds), or a new base now and then.
  const checkpoint = checkpointWrite(db.$workspaceId, negotiationId, fromVersion, state);
  const planned = planEvents(db.$workspaceId, negotiationId, state, events, checkpoint);
  // Fixed when the negotiation started: read before the transaction, which then only writes.
  const suppliers = await readSupplierRows(db, negotiationId);
  const saved = await db.$transaction(async (tx) => {
    const { count } = await tx.negotiation.updateMany({
      where: {
        id: negotiationId,
        checkpointVersion: fromVersion,
        // jobs: an expired (or cancelled) negotiation takes no more steps, so a late click cannot revive it.
        status: { notIn: ['expired', 'cancelled'] },
        ...(leaseOwner === undefined ? {} : { leaseOwner }),
      },
      data: {
        ...checkpoint.columns,
        checkpointVersion: { increment: 1 },
        currentRound: state.round,
        phase: state.phase,
        status: statusOf(state),
        curveball: state.curveball ? toJsonColumn(state.curveball) : undefined,
        questionsAsked: state.askInfo.questions.length,
        clarifications: toJsonColumn(state.askInfo.clarifications),
        ...(state.status === 'completed' ? { completedAt: new Date() } : {}),
        ...(state.earlyTermination?.decision === 'accepted'
          ? {
              earlyTermination: true,
              earlyTerminationReason: state.earlyTermination.offered.reason,
              roundsSkipped: state.earlyTermination.offered.roundsSkipped,
              estimatedCostSavedUsd: state.earlyTermination.offered.estimatedCostSavedUsd,
            }
          : {}),
      },
    });
    if (count === 0) {
      if (leaseOwner !== undefined && !(await holdsLease(tx, negotiationId, leaseOwner))) {
        throw new LeaseLostError(`Negotiation ${negotiationId} is no longer leased to ${leaseOwner}`);
      }
      // Another process (or this one, before a crash) already saved a step from this checkpoint: ours is a duplicate.
      throw new StaleStepError(`Negotiation ${negotiationId} moved on from version ${fromVersion}`);
    }
    await markPause(tx, negotiationId, statusOf(state));
    await writeEvents(tx, state, planned, suppliers);
    await checkpoint.finish(tx, negotiationId);
    await alsoWrite?.(tx, events, state);
    return fromVersion + 1;
  });
  checkpoint.committed(negotiationId);
  return saved;
}

async function holdsLease(tx: WorkspaceTx, negotiationId: string, owner: string) {
  const row = await tx.negotiation.findUnique({ where: { id: negotiationId }, select: { leaseOwner: true } });
  return row?.leaseOwner === owner;
}

// jobs: `pausedAt` is when the negotiation last started waiting for the buyer (the expiry job counts from it). Set
// only on the transition — a paused row still has it — and cleared when the run goes on.
async function markPause(tx: WorkspaceTx, negotiationId: string, status: ReturnType<typeof statusOf>) {
  await tx.negotiation.updateMany({
    where: status === 'paused' ? { id: negotiationId, pausedAt: null } : { id: negotiationId, pausedAt: { not: null } },
    data: { pausedAt: status === 'paused' ? new Date() : null },
  });
}

function statusOf(state: NegotiationState) {
  if (state.status === 'completed') return 'completed' as const;
  return state.status === 'running' ? ('negotiating' as const) : ('paused' as const);
}

/** A question's row id: the engine's question id within its negotiation, so a button can name both. */
export function pendingQuestionId(negotiationId: string, questionId: string): string {
  return `${negotiationId}_${questionId}`;
}

/** The engine's question id back from a row id (negotiation ids are cuids: no underscore). */
export function engineQuestionId(rowId: string): string {
  return rowId.slice(rowId.indexOf('_') + 1);
}

/** The database rows of each engine role: `negotiationSupplier` ids by the supplier's code. */
type SupplierRows = { id: string; supplier: { code: string } }[];

function readSupplierRows(db: WorkspaceDb | WorkspaceTx, negotiationId: string): Promise<SupplierRows> {
  return db.negotiationSupplier.findMany({
    where: { negotiationId },
    select: { id: true, supplier: { select: { code: true } } },
  });
}

/** A step's events as the rows they write, the supplier's row still to be resolved (`writeEvents`). */
type EventWrite = (tx: WorkspaceTx, rowFor: (code: string) => string | undefined) => Promise<void> | void;

/**
 * Everything a step's events write, prepared before its transaction: the encoding of actions and offers (3,000-line
 * arrays, hashed into line sets) is CPU that must not run while the transaction holds the connection — on PGlite the
 * only one, with the acks waiting behind it. The messages are then one statement, whatever their number.
 */
function planEvents(
  workspaceId: string,
  /** Its id; at a start, known only once the negotiation's insert returned it (read when the rows are written). */
  negotiationIdOf: string | (() => string),
  state: NegotiationState,
  events: NegotiationEvent[],
  // Actions and offers carry every line: stored in stored form, their lines the line sets the checkpoint has.
  lineSets: Pick<CheckpointWrite, 'lineSets'>,
): {
  messages: (rowFor: (code: string) => string | undefined) => Prisma.MessageCreateManyInput[];
  others: EventWrite[];
} {
  const idOf = typeof negotiationIdOf === 'string' ? () => negotiationIdOf : negotiationIdOf;
  const messages: ((rowFor: (code: string) => string | undefined) => Prisma.MessageCreateManyInput)[] = [];
  const others: EventWrite[] = [];
  for (const event of events) {
    if (event.type === 'message') {
      const action = encodeFor(lineSets, event.action);
      const pillarBriefs = event.pillarBriefs ? toJsonColumn(event.pillarBriefs) : undefined;
      messages.push((rowFor) => ({
        workspaceId,
        negotiationId: idOf(),
        negotiationSupplierId: rowFor(event.supplierCode) ?? null,
        sequence: event.sequence,
        role: event.role,
        speakerName: event.speaker,
        text: event.text,
        action,
        actionType: event.action.type,
        usedStrategies: event.usedStrategies,
        pillarBriefs,
      }));
    } else if (event.type === 'offer_extracted') {
      const evaluation = state.evaluations.find(
        (e) => e.round === event.round && e.supplierCode === event.supplierCode,
      );
      const offerData = encodeFor(lineSets, event.offer);
      others.push(async (tx, rowFor) => {
        const rowId = rowFor(event.supplierCode);
        if (!rowId) return;
        await tx.negotiationRound.upsert({
          where: { negotiationSupplierId_roundNumber: { negotiationSupplierId: rowId, roundNumber: event.round } },
          create: {
            workspaceId,
            negotiationId: idOf(),
            negotiationSupplierId: rowId,
            roundNumber: event.round,
            phase: state.phase,
            offerData,
            offerTotal: event.offer.total,
            evaluation: evaluation?.evaluation ?? null,
          },
          update: { offerData, offerTotal: event.offer.total },
        });
      });
    } else if (event.type === 'question_asked') {
      others.push(async (tx, rowFor) => {
        await tx.pendingQuestion.create({
          data: {
            id: pendingQuestionId(idOf(), event.questionId),
            workspaceId,
            negotiationId: idOf(),
            negotiationSupplierId: rowFor(event.supplierCode) ?? null,
            kind: event.kind,
            question: event.question,
            suggestedAnswers: event.suggestedAnswers,
          },
        });
      });
    } else if (event.type === 'early_termination_offered') {
      others.push(async (tx) => {
        await tx.pendingQuestion.create({
          data: {
            id: pendingQuestionId(idOf(), event.questionId),
            workspaceId,
            negotiationId: idOf(),
            kind: 'early_termination',
            question: event.record.reason,
            suggestedAnswers: ['Finish now', 'Keep negotiating'],
          },
        });
      });
    } else if (event.type === 'question_answered') {
      others.push(async (tx) => {
        await tx.pendingQuestion.updateMany({
          where: { id: pendingQuestionId(idOf(), event.questionId), status: 'open' },
          data: {
            status: 'answered',
            answer: event.answer,
            answeredBySlackUserId: event.answeredBy,
            answeredAt: new Date(),
          },
        });
      });
    } else if (event.type === 'supplier_done') {
      const last = state.suppliers[event.supplierCode]?.offers.at(-1);
      const finalOffer = last ? encodeFor(lineSets, last) : undefined;
      others.push(async (tx, rowFor) => {
        const rowId = rowFor(event.supplierCode);
        if (!rowId) return;
        await tx.negotiationSupplier.update({
          where: { id: rowId },
          data: {
            status: event.status,
            impasseReason: event.status === 'impasse' && event.reason !== 'accepted' ? event.reason : null,
            impasseDetails: event.details ? { details: event.details } : undefined,
            finalOffer,
            finalOfferTotal: last?.total ?? null,
          },
        });
      });
    }
  }
  return { messages: (rowFor) => messages.map((row) => row(rowFor)), others };
}

/**
 * The engine role a negotiation's supplier row plays, by the row's supplier code: the competitors' own codes; the
 * quoting role (SUP-001) for the quotation's supplier, whatever code it has in this workspace.
 */
export function engineRoleOf(state: Pick<NegotiationState, 'profiles'>, supplierCode: string): string {
  const [quotedRole, ...otherRoles] = state.profiles;
  if (!quotedRole || otherRoles.some((profile) => profile.code === supplierCode)) return supplierCode;
  return quotedRole.code;
}

/** Writes a step's planned events, in its transaction. */
async function writeEvents(
  tx: WorkspaceTx,
  state: NegotiationState,
  planned: ReturnType<typeof planEvents>,
  suppliers: SupplierRows,
) {
  const rowFor = (code: string) => suppliers.find((row) => engineRoleOf(state, row.supplier.code) === code)?.id;
  const messages = planned.messages(rowFor);
  if (messages.length > 0) await tx.message.createMany({ data: messages });
  for (const write of planned.others) await write(tx, rowFor);
}

/**
 * How often a step (or a buyer's input) computed from a checkpoint that another writer moved on is computed again from
 * the new one. Only the buyer's clicks move a checkpoint under a running lease holder, so a few suffice; past them the
 * writer gives up and the error is logged.
 */
const STALE_RETRIES = 5;

/**
 * The checkpoint after a save lost to another writer, when it is worth computing the step again: the version moved
 * (a buyer's click saved in between). Null when it did not — the save was refused because the negotiation ended
 * (expired, cancelled), which no retry changes.
 */
async function movedCheckpoint(db: WorkspaceDb, negotiationId: string, fromVersion: number) {
  const fresh = await loadCheckpoint(db, negotiationId);
  return fresh.version === fromVersion ? null : fresh;
}

/**
 * Runs a negotiation until it waits for the buyer or completes, one saved step at a time, holding the lease. Returns
 * the last saved state, or null when the lease was not had or was lost. Safe to call on any instance at any time:
 * without the lease it does nothing. A step that loses
 * its save to a buyer's click (a curveball strategy chosen while the step ran) is computed again from the checkpoint
 * the click saved, so the choice governs the rest of the run. The lease is renewed before every agent turn (each may
 * be a paid Claude call) and every save is fenced on it: a run whose lease was taken stops at once, before paying for
 * another turn, and saves nothing more (`lease_lost` in the log).
 */
export async function runNegotiation(
  db: WorkspaceDb,
  negotiationId: string,
  agents: EngineAgents,
  owner: string,
  alsoWrite?: AlsoWrite,
  /** The clock leases are measured on (the database's, in the server). */
  now: () => Date = () => new Date(),
): Promise<NegotiationState | null> {
  if (!(await acquireLease(db, negotiationId, owner, now()))) return null;
  let { state, version } = await loadCheckpoint(db, negotiationId);
  let stale = 0;
  const fenced = renewingBeforeEachTurn(agents, async () => {
    if (!(await renewLease(db, negotiationId, owner, now()))) {
      throw new LeaseLostError(`Negotiation ${negotiationId} is no longer leased to ${owner}`);
    }
  });
  try {
    while (state.status === 'running') {
      const result = await advance(state, fenced);
      try {
        version = await saveStep(db, negotiationId, version, result, alsoWrite, owner);
        state = result.state;
        stale = 0;
      } catch (error) {
        if (!(error instanceof StaleStepError) || ++stale > STALE_RETRIES) throw error;
        const fresh = await movedCheckpoint(db, negotiationId, version);
        if (fresh === null) throw error;
        ({ state, version } = fresh);
      }
      // Renewed after every step too: a step without agent turns must not let a long run's lease run out.
      if (!(await renewLease(db, negotiationId, owner, now()))) throw new LeaseLostError(negotiationId);
    }
  } catch (error) {
    if (!(error instanceof LeaseLostError)) throw error;
    log.warn('lease_lost: another process took this negotiation; this run stops', { negotiationId, owner, version });
    return null;
  } finally {
    await releaseLease(db, negotiationId, owner);
  }
  return state;
}

/**
 * The engine's agents, each turn preceded by `renew` (which throws when the lease is gone). Concurrent turns of one
 * step share a renewal in flight rather than each writing their own.
 */
function renewingBeforeEachTurn(agents: EngineAgents, renew: () => Promise<void>): EngineAgents {
  let inFlight: Promise<void> | null = null;
  const renewOnce = () => {
    inFlight ??= renew().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  const afterRenewal =
    <A extends unknown[], R>(turn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await renewOnce();
      return turn(...args);
    };
  const { brand } = agents;
  return {
    brand: {
      rfq: afterRenewal((context) => brand.rfq(context)),
      pillars: afterRenewal((context) => brand.pillars(context)),
      synthesize: afterRenewal((context, briefs) => brand.synthesize(context, briefs)),
    },
    supplier(code) {
      const supplier = agents.supplier(code);
      return { respond: afterRenewal((context) => supplier.respond(context)) };
    },
  };
}

/**
 * The buyer answers a question, decides on early termination or picks a curveball strategy: one saved step, then the
 * run can continue. Computed from the latest checkpoint; when a step of the running engine is saved in between, the
 * input is applied again to the checkpoint that step left, so a click during a running round is not lost.
 */
export async function applyBuyerInput(
  db: WorkspaceDb,
  negotiationId: string,
  input:
    | { kind: 'answer'; questionId: string; answer: string; by: string }
    | { kind: 'early_termination'; finish: boolean; by: string }
    | { kind: 'curveball_strategy'; strategyId: string; by: string }
    /** A person at a connected supplier answered this round (its Submit offer): `by` is that person. */
    | { kind: 'supplier_turn'; supplierCode: string; turn: AgentTurn; by: string }
    /** The round closed for a connected supplier that had not answered: by the buyer, or (null) at its reply-by time. */
    | { kind: 'no_reply'; supplierCode: string; by: string | null }
    /** The buyer edited the message awaiting a connected supplier before sending it. */
    | { kind: 'edit_brand_message'; supplierCode: string; sequence: number; text: string; by: string },
  alsoWrite?: AlsoWrite,
): Promise<StepResult> {
  let { state, version } = await loadCheckpoint(db, negotiationId);
  for (let attempt = 1; ; attempt++) {
    const result = buyerStep(state, input);
    if (result.events.length === 0) return result; // already answered, or nothing was asked: idempotent
    try {
      await saveStep(db, negotiationId, version, result, alsoWrite);
      return result;
    } catch (error) {
      if (!(error instanceof StaleStepError) || attempt > STALE_RETRIES) throw error;
      const fresh = await movedCheckpoint(db, negotiationId, version);
      if (fresh === null) throw error;
      ({ state, version } = fresh);
    }
  }
}

function buyerStep(state: NegotiationState, input: Parameters<typeof applyBuyerInput>[2]): StepResult {
  if (input.kind === 'answer') return answer(state, input.questionId, input.answer, input.by);
  if (input.kind === 'early_termination') return decideEarlyTermination(state, input.finish, input.by);
  if (input.kind === 'supplier_turn') return receiveSupplierTurn(state, input.supplierCode, input.turn);
  if (input.kind === 'no_reply') return closeWithoutReply(state, input.supplierCode, input.by);
  if (input.kind === 'edit_brand_message') {
    return editBrandMessage(state, input.supplierCode, input.sequence, input.text, input.by);
  }
  // The award is decided once the run completes: a strategy picked in the same moment (the click read the
  // checkpoint before the last step was saved) changes nothing, as a click after it would be refused.
  if (state.status === 'completed') return { state, events: [] };
  return chooseCurveballStrategy(state, input.strategyId, input.by);
}
