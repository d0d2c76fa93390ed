// The PGlite driver adapter with PostgreSQL errors translated the way @prisma/adapter-pg translates them.
//
// pglite-prisma-adapter 0.6 (the last release for Prisma 6) reports every database error as `{ kind: 'postgres' }`,
// which Prisma 6.19 no longer maps: a unique violation would surface as a bare DriverAdapterError instead of P2002,
// and code that relies on P2002 for idempotency would behave differently on PGlite and on PostgreSQL. This wrapper
// makes the two backends raise the same Prisma errors.
import type { PGlite } from '@electric-sql/pglite';
import {
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

type MappedError = ConstructorParameters<typeof DriverAdapterError>[0];

interface PostgresErrorFields {
  kind: 'postgres';
  code: string;
  message: string;
  detail?: string;
  column?: string;
}

const keyFields = (detail: string | undefined) => detail?.match(/Key \(([^)]+)\)/)?.[1]?.split(', ');

/** PostgreSQL SQLSTATE → the driver-adapter error kind Prisma turns into P2002, P2003, P2011, P2034, … */
export function mapPostgresError(cause: PostgresErrorFields): MappedError | undefined {
  const fields = keyFields(cause.detail);
  switch (cause.code) {
    case '23505':
      return { kind: 'UniqueConstraintViolation', constraint: fields ? { fields } : undefined };
    case '23502':
      return { kind: 'NullConstraintViolation', constraint: fields ? { fields } : undefined };
    case '23503':
      return {
        kind: 'ForeignKeyConstraintViolation',
        constraint: cause.column ? { fields: [cause.column] } : undefined,
      };
    case '22001':
      return { kind: 'LengthMismatch', column: cause.column };
    case '22003':
      return { kind: 'ValueOutOfRange', cause: cause.message };
    case '40001':
      return { kind: 'TransactionWriteConflict' };
    default:
      return undefined;
  }
}

function translate(error: unknown): unknown {
  if (!(error instanceof DriverAdapterError)) return error;
  const cause = error.cause as unknown as Partial<PostgresErrorFields>;
  if (cause.kind !== 'postgres' || typeof cause.code !== 'string' || typeof cause.message !== 'string') return error;
  const mapped = mapPostgresError(cause as PostgresErrorFields);
  return mapped
    ? new DriverAdapterError({ ...mapped, originalCode: cause.code, originalMessage: cause.message })
    : error;
}

/** Wraps every async method so its rejection is translated; transactions it starts are wrapped the same way. */
function translatingErrors<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.then(
          (resolved: unknown) =>
            property === 'startTransaction' && resolved !== null && typeof resolved === 'object'
              ? translatingErrors(resolved)
              : resolved,
          (error: unknown) => {
            throw translate(error);
          },
        );
      };
    },
  });
}

export class PGliteAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = 'pglite-prisma-adapter';
  private readonly inner: PrismaPGlite;

  constructor(client: PGlite) {
    this.inner = new PrismaPGlite(client);
  }

  async connect(): Promise<SqlDriverAdapter> {
    return translatingErrors(await this.inner.connect());
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    return translatingErrors(await this.inner.connectToShadowDb());
  }
}
