import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { signedInUser } from './drive-factories.js';
import { createTestApp, type TestApp } from './test-app.js';

export type Person = Awaited<ReturnType<typeof signedInUser>>;

/**
 * A fresh app for the calling describe block, with one signed-in user who
 * owns what the tests make; both exist from its beforeAll on, so read them
 * inside tests (`fx.app`, `fx.owner`), not at collection time.
 */
export function appWithOwner(options?: Parameters<typeof createTestApp>[0]): { readonly app: FastifyInstance; readonly owner: Person; readonly test: TestApp } {
  let test: TestApp | undefined;
  let owner: Person | undefined;
  beforeAll(async () => {
    test = await createTestApp(options);
    owner = await signedInUser(test.app);
  });
  afterAll(() => test?.close());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('appWithOwner: read inside a test, after beforeAll');
    return value;
  };
  return {
    get app() {
      return ready(test).app;
    },
    get owner() {
      return ready(owner);
    },
    get test() {
      return ready(test);
    },
  };
}
