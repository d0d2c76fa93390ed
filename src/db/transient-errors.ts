// Which database failures are worth trying again: the connection went away (a failover, a restart, a network blip,
// an administrator cutting connections), the pool had no connection free in time, or a transaction lost a write
// conflict or a deadlock. Anything else — a constraint, a bug — fails the same way every time.
import { Prisma } from '../generated/prisma/client.js';

/** Prisma's codes for: cannot reach, timed out, server closed the connection, pool timeout, transaction gone, conflict. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034']);
/** The driver adapters' kinds for the same. */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'TransactionWriteConflict',
]);
/** SQLSTATEs: connection exceptions (08…), shutting down / cannot connect now (57P01–57P03), deadlock (40P01). */
const SQLSTATE = /^(08...|57P0[1-3]|40001|40P01|53300)$/;
/** What node-postgres says when a connection dies under it (it gives these no code). */
const DRIVER_MESSAGES =
  /Connection terminated|Client has encountered a connection error|connection is closed|ECONNRESET|ECONNREFUSED/i;

export function isTransientDatabaseError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof Prisma.PrismaClientKnownRequestError && PRISMA_CODES.has(current.code)) return true;
    const { name, cause, message } = current as { name?: unknown; cause?: unknown; message?: unknown };
    if (name === 'DriverAdapterError' && typeof cause === 'object' && cause !== null) {
      const { kind, code } = cause as { kind?: unknown; code?: unknown };
      if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
      if (kind === 'postgres' && typeof code === 'string' && SQLSTATE.test(code)) return true;
      return false;
    }
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
    current = cause;
  }
  return false;
}
