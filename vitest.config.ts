import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'dev/**/*.test.ts', 'test/**/*.test.ts'],
    // Each DB test file opens its own PGlite (or its own PostgreSQL schema); WASM start-up can take a few seconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
