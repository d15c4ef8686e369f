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
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

export default defineConfig({
  test: {
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
