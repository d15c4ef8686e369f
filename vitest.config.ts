import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The server suite runs once per database dialect (Kysely's habit): every
// test file builds the app in-process against a fresh database of its own.
const serverProject = (dialect: 'sqlite' | 'postgres') => ({
  test: {
    name: `server:${dialect}`,
    include: ['tests/server/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DIALECT: dialect },
    setupFiles: ['tests/server/support/no-outbound.ts'],
    // Every file builds its own app on its own database, so files need no fresh module graph each:
    // loading the server's modules (AWS SDK, sharp, fastify, kysely…) once per worker instead of once
    // per file was most of the suite's time (import 244 s of 764 s on a clean 2-core machine).
    // What is cached per module must therefore be per app, never per process (see social/providers.ts).
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, idle
    // whenever a test waits on PostgreSQL, LibreOffice, litmus or a child server. One per core keeps both busy.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      serverProject('sqlite'),
      serverProject('postgres'),
      {
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/web/setup.ts'],
        },
      },
    ],
  },
});
