import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { render } from '../../../lib/errors.js';
import { requirePermission } from '../../../plugins/guards.js';
import { linesFor } from '../../../plugins/request-lines.js';
import { callerOf } from '../caller.js';
import type { AdminPlan } from './service.js';
import { createPlanBody, planIdParam, planList, planResponse, priceBody, priceIdParam, updatePlanBody } from './schemas.js';
import type { Admin } from '../build.js';

const tags = ['admin: plans'];

export const adminPlanRoutes: FastifyPluginAsyncZod<Pick<Admin, 'plans'>> = async (app, { plans }) => {
  /** The plan, and Stripe's warning (if any) in the caller's language. */
  const answer = async (request: FastifyRequest, result: { plan: AdminPlan; message?: string }) =>
    result.message ? { plan: result.plan, message: render(result.message, await linesFor(request)) } : { plan: result.plan };

  app.get(
    '/plans',
    {
      onRequest: requirePermission('plans.view'),
      schema: { tags, summary: 'Every plan, hidden ones too, with its prices (minor units) and subscriber counts', response: { 200: planList } },
    },
    async () => ({ plans: await plans.list() }),
  );

  app.post(
    '/plans',
    {
      onRequest: requirePermission('plans.create'),
      schema: {
        tags,
        summary: 'Create a plan with its prices; with Stripe configured, a paid plan and its prices are created there too',
        body: createPlanBody,
        response: { 200: planResponse },
      },
    },
    async (request) => answer(request, await plans.create(callerOf(request), request.body)),
  );

  app.put(
    '/plans/:id',
    {
      onRequest: requirePermission('plans.update'),
      schema: {
        tags,
        summary: 'Edit a plan: name, description, features, space, hidden, recommended, position (Stripe follows)',
        params: planIdParam,
        body: updatePlanBody,
        response: { 200: planResponse },
      },
    },
    async (request) => answer(request, await plans.update(callerOf(request), request.params.id, request.body)),
  );

  app.post(
    '/plans/:id/prices',
    {
      onRequest: requirePermission('plans.update'),
      schema: {
        tags,
        summary: 'Add a price to a plan (amount in minor units); prices are never edited, add one and remove the old',
        params: planIdParam,
        body: priceBody,
        response: { 200: planResponse },
      },
    },
    async (request) => answer(request, await plans.addPrice(callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/plans/:id/prices/:priceId',
    {
      onRequest: requirePermission('plans.update'),
      schema: {
        tags,
        summary: 'Remove a price nobody subscribed to (it stops being sold at Stripe); 409 when it has subscriptions',
        params: priceIdParam,
        response: { 200: planResponse },
      },
    },
    async (request) => answer(request, await plans.deletePrice(callerOf(request), request.params.id, request.params.priceId)),
  );
};
