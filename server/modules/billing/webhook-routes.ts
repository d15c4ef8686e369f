import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { webhookResponse } from './schemas.js';
import type { BillingWebhooks } from './webhooks.js';

/**
 * POST billing/stripe/webhook. Its own plugin so that the raw-bytes body
 * parser (the signature is over the exact bytes) stays on this route; no
 * XSRF check (Stripe carries no cookie, the signature is the check).
 */
export const billingWebhookRoutes: FastifyPluginAsyncZod<{ billingWebhooks: BillingWebhooks }> = async (app, { billingWebhooks }) => {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));

  app.post(
    '/billing/stripe/webhook',
    {
      config: { xsrf: false },
      schema: { tags: ['billing'], summary: 'Stripe’s webhook (signed events; each event id is handled once)', response: { 200: webhookResponse } },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      return billingWebhooks.receive(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0), Array.isArray(signature) ? signature[0] : signature);
    },
  );
};
