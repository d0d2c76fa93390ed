// Every operation a Prisma client is asked for (a model's, or raw SQL), as the client hands it to Prisma: for tests
// that bound how many statements a path makes while someone waits for it.
import type { PrismaClient } from '../../src/db/client.js';

export function countingOperations(prisma: PrismaClient): { client: PrismaClient; operations: string[] } {
  const operations: string[] = [];
  const client = prisma.$extends({
    query: {
      async $allOperations({ model, operation, args, query }) {
        operations.push(model ? `${model}.${operation}` : operation);
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
  return { client, operations };
}
