// Where a checkpoint's bytes go (the format is checkpoint-codec.ts): `Negotiation.checkpoint` holds a base, one
// NegotiationCheckpointDelta row per step since holds what that step changed, and NegotiationLineSet holds the long
// arrays all of them reference, each written once. Line sets and deltas are written with raw SQL: Prisma compiles a
// JSON value per element, which for a 3,000-line offer cost more than the write itself.
//
// A delta needs the state it is taken from. This process remembers the last state it loaded or saved for a few
// negotiations (by id and version); a save from a version it does not know — another instance saved it — writes a new
// base instead, as does every SNAPSHOT_EVERY-th step, so loading reads a bounded number of deltas. The version guard
// in the caller's update decides whether the save counts, so a remembered state is only ever the exact checkpoint of
// that version: versions are never written twice.
import { Prisma } from '../../generated/prisma/client.js';
import { type NegotiationState, negotiationStateSchema } from '../../negotiation/engine.js';
import type { WorkspaceDb, WorkspaceTx } from '../scoped.js';
import {
  applyOps,
  type CheckpointOp,
  decode,
  diffStates,
  encode,
  type Json,
  type LineSets,
  referencedLineSets,
} from './checkpoint-codec.js';

/** A new base after this many deltas: loading replays at most this many. */
export const SNAPSHOT_EVERY = 32;

/** The stored base; a checkpoint without `format` is a whole state as JSON (written before line sets). */
interface StoredBase {
  format: 2;
  state: Json;
}

interface Remembered {
  version: number;
  baseVersion: number;
  state: NegotiationState;
  /** Line sets known to be stored for this negotiation. */
  stored: Set<string>;
}

/** Negotiations whose latest checkpoint this process holds: a handful run at once; the oldest is forgotten first. */
const REMEMBERED_MAX = 8;
const remembered = new Map<string, Remembered>();

function remember(negotiationId: string, entry: Remembered): void {
  remembered.delete(negotiationId);
  // A completed negotiation is kept too (within the same bound): its conclusion, the PO modal and a premium's consent
  // each load it, and decoding a 3,000-line state again is most of a second of the event loop.
  remembered.set(negotiationId, entry);
  while (remembered.size > REMEMBERED_MAX) {
    const oldest = remembered.keys().next().value;
    if (oldest === undefined) break;
    remembered.delete(oldest);
  }
}

/** Forgets every remembered checkpoint, as a newly started process has none (for tests of a restart). */
export function forgetCheckpoints(): void {
  remembered.clear();
}

/**
 * States are values: the engine copies on write, and a delta is taken by comparing the remembered state with the new
 * one. Freezing what is remembered makes an edit in place — which would hide a change from the next delta — throw.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}

/** What a save writes to the Negotiation row for its checkpoint, and the rest it writes once that row is updated. */
export interface CheckpointWrite {
  /** The Negotiation columns: a new base, or nothing (the base stays; a delta row follows). */
  columns: { checkpoint?: Prisma.InputJsonValue; checkpointBaseVersion?: number };
  /** Line sets of anything else the save stores in stored form (messages' actions, offers): see `encodeFor`. */
  lineSets: LineSets;
  /** Inserts the delta (or clears the deltas a new base replaces) and the line sets not stored yet. */
  /** `fresh`: the negotiation was created in this transaction, so it has no deltas to clear. */
  finish(tx: WorkspaceTx, negotiationId: string, options?: { fresh?: boolean }): Promise<void>;
  /** After the transaction committed: the saved state becomes the one the next delta is taken from. */
  committed(negotiationId: string): void;
}

/**
 * Prepares saving `state` as version `fromVersion + 1` (a new negotiation: null, -1 — its version 0 is a base). Call
 * `finish` in the transaction once the version-checked update of `columns` succeeded, and `committed` after the commit.
 */
export function checkpointWrite(
  workspaceId: string,
  negotiationId: string | null,
  fromVersion: number,
  state: NegotiationState,
): CheckpointWrite {
  const version = fromVersion + 1;
  const previous = negotiationId === null ? undefined : remembered.get(negotiationId);
  const known = previous?.version === fromVersion ? previous : undefined;
  const lineSets: LineSets = new Map();
  const ops: CheckpointOp[] | null =
    known && version - known.baseVersion < SNAPSHOT_EVERY ? diffStates(known.state, state, lineSets) : null;
  const base: StoredBase | null = ops === null ? { format: 2, state: encode(state, lineSets) } : null;
  const stored = new Set(known?.stored ?? []);
  return {
    columns: base ? { checkpoint: base as unknown as Prisma.InputJsonValue, checkpointBaseVersion: version } : {},
    lineSets,
    async finish(tx, id, options) {
      if (ops !== null) {
        await tx.$executeRaw`
          INSERT INTO "NegotiationCheckpointDelta" ("negotiationId", "version", "workspaceId", "ops")
          VALUES (${id}, ${version}, ${workspaceId}, ${JSON.stringify(ops)})`;
      } else if (!options?.fresh) {
        await tx.$executeRaw`DELETE FROM "NegotiationCheckpointDelta" WHERE "negotiationId" = ${id}`;
      }
      // The new line sets in one statement: each is a round trip the transaction holds the connection for.
      const fresh = [...lineSets].filter(([hash]) => !stored.has(hash));
      if (fresh.length > 0) {
        await tx.$executeRaw`
          INSERT INTO "NegotiationLineSet" ("negotiationId", "hash", "workspaceId", "body")
          VALUES ${Prisma.join(fresh.map(([hash, body]) => Prisma.sql`(${id}, ${hash}, ${workspaceId}, ${body})`))}
          ON CONFLICT DO NOTHING`;
      }
    },
    committed(id) {
      for (const hash of lineSets.keys()) stored.add(hash);
      remember(id, {
        version,
        baseVersion: base ? version : (known?.baseVersion ?? version),
        state: deepFreeze(state),
        stored,
      });
    },
  };
}

/** Anything else a save stores in stored form (a message's action, an offer): its line sets join the save's. */
export function encodeFor(write: Pick<CheckpointWrite, 'lineSets'>, value: unknown): Prisma.InputJsonValue {
  return encode(value, write.lineSets) as Prisma.InputJsonValue;
}

/** A value stored with `encodeFor`, read back (for readers of messages' actions and offers). */
export async function decodeStored(db: WorkspaceDb, negotiationId: string, value: unknown): Promise<Json> {
  const lineSets = await readLineSets(db, negotiationId, referencedLineSets(value as Json));
  return decode(value as Json, (hash) => lineSetBody(lineSets, hash));
}

/** The negotiation has no checkpoint (it does not exist in this workspace, or its run never saved a step). */
export class MissingCheckpointError extends Error {
  override name = 'MissingCheckpointError';
  constructor(readonly negotiationId: string) {
    super(`Negotiation ${negotiationId} has no checkpoint`);
  }
}

/**
 * The latest checkpoint: its base, the deltas since, and the line sets they reference — or, when this process saved or
 * loaded that very version, the state it remembers (versions are never written twice, so it is the same state).
 * Decoding, replaying and checking a 3,000-line checkpoint is a few hundred milliseconds of the event loop, at every
 * run's start and every buyer's input.
 */
export async function readCheckpoint(db: WorkspaceDb, negotiationId: string) {
  const known = remembered.get(negotiationId);
  if (known) {
    const [row] = await db.$queryRaw<{ checkpointVersion: number }[]>`
      SELECT "checkpointVersion" FROM "Negotiation"
       WHERE "id" = ${negotiationId} AND "workspaceId" = ${db.$workspaceId} AND "checkpoint" IS NOT NULL`;
    if (row && Number(row.checkpointVersion) === known.version) return { state: known.state, version: known.version };
  }
  const read = await readStoredCheckpoint(db, negotiationId);
  if (read.remember) remember(negotiationId, read.remember);
  else remembered.delete(negotiationId);
  return { state: read.state, version: read.version };
}

/**
 * The latest checkpoint as the database has it, decoded, whatever this process remembers (readCheckpoint; the
 * checkpoint tests compare it with the engine's state). `remember`: what the next delta may be taken from, or null for
 * a whole-state checkpoint from before line sets.
 */
export async function readStoredCheckpoint(db: WorkspaceDb, negotiationId: string) {
  // One statement, so the base and the deltas are of one moment: a save that writes a new base clears the deltas.
  const rows = await db.$queryRaw<
    { checkpoint: string | null; checkpointVersion: number; baseVersion: number; ops: string | null }[]
  >`
    SELECT n."checkpoint"::text AS "checkpoint", n."checkpointVersion", n."checkpointBaseVersion" AS "baseVersion",
           d."ops"
      FROM "Negotiation" n
      LEFT JOIN "NegotiationCheckpointDelta" d
        ON d."negotiationId" = n."id" AND d."version" > n."checkpointBaseVersion"
       AND d."version" <= n."checkpointVersion"
     WHERE n."id" = ${negotiationId} AND n."workspaceId" = ${db.$workspaceId}
     ORDER BY d."version"`;
  const head = rows[0];
  if (!head || head.checkpoint === null) throw new MissingCheckpointError(negotiationId);
  const version = Number(head.checkpointVersion);
  const stored = JSON.parse(head.checkpoint) as Partial<StoredBase> & Record<string, unknown>;
  if (stored.format !== 2 || stored.state === undefined) {
    // Written whole, before line sets: the next save writes a base in stored form (there is nothing to diff against).
    return { state: negotiationStateSchema.parse(stored), version, remember: null };
  }
  const deltas = rows.flatMap((row) => (row.ops === null ? [] : [JSON.parse(row.ops) as CheckpointOp[]]));
  const hashes = referencedLineSets(stored.state);
  for (const ops of deltas) referencedLineSets(ops as unknown as Json, hashes);
  const lineSets = await readLineSets(db, negotiationId, hashes);
  const body = (hash: string) => lineSetBody(lineSets, hash);
  let json = decode(stored.state, body);
  for (const ops of deltas) json = applyOps(json, ops, body);
  const state = deepFreeze(negotiationStateSchema.parse(json));
  const known: Remembered = { version, baseVersion: Number(head.baseVersion), state, stored: new Set(lineSets.keys()) };
  return { state, version, remember: known };
}

/** The line sets named, and those they reference in turn. */
async function readLineSets(db: WorkspaceDb, negotiationId: string, wanted: Set<string>): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let missing = [...wanted];
  while (missing.length > 0) {
    const rows = await db.$queryRaw<{ hash: string; body: string }[]>`
      SELECT "hash", "body" FROM "NegotiationLineSet"
       WHERE "negotiationId" = ${negotiationId} AND "workspaceId" = ${db.$workspaceId}
         AND "hash" IN (${Prisma.join(missing)})`;
    const next = new Set<string>();
    for (const row of rows) {
      found.set(row.hash, row.body);
      for (const hash of referencedLineSets(JSON.parse(row.body) as Json)) if (!found.has(hash)) next.add(hash);
    }
    if (rows.length < missing.length && next.size === 0) break;
    missing = [...next];
  }
  return found;
}

function lineSetBody(lineSets: Map<string, string>, hash: string): string {
  const body = lineSets.get(hash);
  if (body === undefined) throw new Error(`line set ${hash} is missing`);
  return body;
}
