/**
 * The services a test app was built with, for arranging data and inspecting state (`servicesOf(t.app).db`).
 * Not a Fastify decoration: routes get their dependencies as plugin options, and nothing but tests, benches
 * and main.ts's start-up work may reach the whole set.
 */
export { servicesOf } from '../../../server/app.js';
