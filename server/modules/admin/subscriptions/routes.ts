import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../../plugins/guards.js';
import { callerOf } from '../caller.js';
import { listQuery, pageSchema } from '../paging.js';
import { okResponse } from '../users/schemas.js';
import { SUBSCRIPTION_SORTS } from './service.js';
import type { Admin } from '../build.js';

const tags = ['admin: subscriptions'];

const subscriptionRow = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    user_email: z.string(),
    product_id: z.number().int(),
    product_name: z.string(),
    price_id: z.number().int(),
    price: z.object({ amount: z.number().int().describe('Minor units'), currency: z.string(), interval: z.string(), interval_count: z.number().int() }),
    gateway_name: z.string(),
    gateway_id: z.string(),
    status: z.string().describe('Stripe’s status: active, trialing, past_due, canceled…'),
    valid: z.boolean().describe('Gives its plan now'),
    renews_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'AdminSubscriptionRow' });

const subscriptionQuery = listQuery(SUBSCRIPTION_SORTS).extend({
  status: z.string().trim().max(32).optional().describe('Stripe’s status, e.g. active or canceled'),
  userId: z.coerce.number().int().positive().optional(),
  productId: z.coerce.number().int().positive().optional(),
});

export const adminSubscriptionRoutes: FastifyPluginAsyncZod<Pick<Admin, 'subscriptions'>> = async (app, { subscriptions }) => {
  app.get(
    '/subscriptions',
    {
      onRequest: requirePermission('subscriptions.view'),
      schema: {
        tags,
        summary: 'Subscriptions: a page, filtered by status, user and plan, searched by email, plan or Stripe id',
        querystring: subscriptionQuery,
        response: { 200: pageSchema(subscriptionRow) },
      },
    },
    async (request) => subscriptions.list(request.query),
  );

  app.post(
    '/subscriptions/:id/cancel',
    {
      onRequest: requirePermission('subscriptions.update'),
      schema: {
        tags,
        summary: 'Cancel a subscription now or at the end of its paid period (at Stripe too when Stripe bills it)',
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: z.object({ at_period_end: z.boolean().optional().describe('Keep the plan until the paid period ends (default: end now)') }).optional(),
        response: { 200: okResponse },
      },
    },
    async (request) => {
      await subscriptions.cancel(callerOf(request), request.params.id, request.body?.at_period_end ?? false);
      return { message: 'Cancelled subscription' };
    },
  );
};
