import type { FastifyInstance, FastifyPluginOptions } from 'fastify';

/**
 * A module's routes bound to the dependencies its `index.ts` built them with, and where they are mounted.
 * Route files take those dependencies as their plugin options, never a bag of every service: what a route
 * can reach is what its module handed it.
 */
export interface ModuleRoutes {
  prefix: string;
  plugin: (app: FastifyInstance) => Promise<void>;
}

// The plugin's own type is left to Fastify's `register` (Zod-typed or plain); its options must be the deps.
type RoutePlugin<D> = (app: never, deps: D) => Promise<void>;

export function moduleRoutes<D extends FastifyPluginOptions>(prefix: string, plugin: RoutePlugin<D>, deps: D): ModuleRoutes {
  return {
    prefix,
    plugin: async (app) => {
      await app.register(plugin as unknown as (app: FastifyInstance, deps: D) => Promise<void>, deps);
    },
  };
}

/** The API's prefix: most modules mount their routes under it. */
export const API_PREFIX = '/api/v1';
