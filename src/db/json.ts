// JSON columns. Prisma types its JSON input structurally (index signatures), which domain interfaces do not have;
// a round trip through JSON makes the value exactly what the column will hold (no undefined, no class instances).
import type { Prisma } from '../generated/prisma/client.js';

export function toJsonColumn(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;
}
