// Prisma CLI configuration (used only at development time: `prisma generate` and `npm run db:migration`).
//
// The app never runs the Prisma CLI: it applies the committed SQL migrations itself (src/db/migrate.ts), on PGlite or
// PostgreSQL. The CLI runs fully offline with the JS schema engine against a throwaway in-memory PGlite. (The CLI
// never closes it, so PGlite's internal timer keeps a `migrate diff` alive ~10 s after its output is complete.)
import { PGlite } from '@electric-sql/pglite';
import { defineConfig } from 'prisma/config';
import { PGliteAdapterFactory } from './src/db/pglite-adapter.js';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  experimental: { adapter: true },
  engine: 'js',
  async adapter() {
    return new PGliteAdapterFactory(new PGlite());
  },
});
