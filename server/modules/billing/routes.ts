import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { render } from '../../lib/errors.js';
import { currentUser, requireUser } from '../../plugins/guards.js';
import { linesFor } from '../../plugins/request-lines.js';
import { invoicesResponse, messageResponse, planChoiceBody, productsResponse, subscriptionResponse, urlResponse } from './schemas.js';
import type { BillingService } from './service.js';

const tags = ['billing'];

/** Plans for everyone; checkout and the signed-in user's own subscription. */
export const billingRoutes: FastifyPluginAsyncZod<{ billing: BillingService }> = async (app, { billing }) => {
  app.get(
    '/billing/products',
    { schema: { tags, summary: 'The plans on sale with their prices (hidden plans are not listed)', response: { 200: productsResponse } } },
    async () => ({ pagination: await billing.products() }),
  );

  app.post(
    '/billing/checkout',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Start Stripe Checkout for a plan’s price; answers the address of Stripe’s payment page',
        body: planChoiceBody,
        response: { 200: urlResponse },
      },
    },
    async (request) => billing.checkout(currentUser(request), request.body.product_id, request.body.price_id),
  );

  app.get(
    '/billing/subscription',
    {
      onRequest: requireUser,
      schema: { tags, summary: 'Your subscription, the plan deciding your space, and your usage', response: { 200: subscriptionResponse } },
    },
    async (request) => billing.subscription(currentUser(request).id),
  );

  app.post(
    '/billing/subscription/change-plan',
    {
      onRequest: requireUser,
      schema: { tags, summary: 'Move your subscription to another plan or cycle (prorated)', body: planChoiceBody, response: { 200: messageResponse } },
    },
    async (request) => {
      const { message, values } = await billing.changePlan(currentUser(request).id, request.body.product_id, request.body.price_id);
      return { message: render({ template: message, values }, await linesFor(request)) };
    },
  );

  app.post(
    '/billing/subscription/cancel',
    { onRequest: requireUser, schema: { tags, summary: 'Cancel at the end of the paid period', response: { 200: messageResponse } } },
    async (request) => {
      await billing.cancel(currentUser(request).id);
      return { message: render('Your subscription is cancelled. Your plan stays until the end of the paid period.', await linesFor(request)) };
    },
  );

  app.post(
    '/billing/subscription/resume',
    { onRequest: requireUser, schema: { tags, summary: 'Take back a cancellation before the period ends', response: { 200: messageResponse } } },
    async (request) => {
      await billing.resume(currentUser(request).id);
      return { message: render('Your subscription is resumed.', await linesFor(request)) };
    },
  );

  app.get(
    '/billing/invoices',
    { onRequest: requireUser, schema: { tags, summary: 'Your invoices, from Stripe', response: { 200: invoicesResponse } } },
    async (request) => billing.invoices(currentUser(request).id),
  );

  app.post(
    '/billing/portal',
    { onRequest: requireUser, schema: { tags, summary: 'A Stripe Billing Portal session to update your payment method', response: { 200: urlResponse } } },
    async (request) => billing.portal(currentUser(request).id),
  );
};
