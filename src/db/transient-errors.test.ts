import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import { describe, expect, it } from 'vitest';
import { Prisma } from '../generated/prisma/client.js';
import { isTransientDatabaseError } from './transient-errors.js';

const noDetail = { detail: undefined, column: undefined, hint: undefined };
const known = (code: string) => new Prisma.PrismaClientKnownRequestError('failed', { code, clientVersion: '6.19.2' });

describe('isTransientDatabaseError', () => {
  it('retries a connection cut by the server (what pg_terminate_backend gives through the adapter)', () => {
    const cut = new DriverAdapterError({
      kind: 'postgres',
      code: '57P01',
      severity: 'FATAL',
      message: 'terminating connection due to administrator command',
      ...noDetail,
    });
    expect(isTransientDatabaseError(cut)).toBe(true);
    expect(isTransientDatabaseError(new DriverAdapterError({ kind: 'ConnectionClosed' }))).toBe(true);
    expect(isTransientDatabaseError(new DriverAdapterError({ kind: 'TransactionWriteConflict' }))).toBe(true);
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientDatabaseError(known('P2024'))).toBe(true);
    expect(isTransientDatabaseError(known('P2034'))).toBe(true);
    // Wrapped by a caller.
    expect(isTransientDatabaseError(new Error('drafting failed', { cause: known('P1017') }))).toBe(true);
  });

  it('does not retry what fails the same way every time', () => {
    expect(isTransientDatabaseError(known('P2002'))).toBe(false);
    expect(isTransientDatabaseError(new DriverAdapterError({ kind: 'UniqueConstraintViolation' }))).toBe(false);
    const syntax = new DriverAdapterError({
      kind: 'postgres',
      code: '42601',
      severity: 'ERROR',
      message: 'syntax error',
      ...noDetail,
    });
    expect(isTransientDatabaseError(syntax)).toBe(false);
    expect(isTransientDatabaseError(new TypeError('x is undefined'))).toBe(false);
    expect(isTransientDatabaseError('a string')).toBe(false);
    expect(isTransientDatabaseError(null)).toBe(false);
  });
});
