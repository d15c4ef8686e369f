import { z } from 'zod';

/** The wire contract of plans and billing (spec §3 Product, Price; §7 billing/products). */

export const priceSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  amount: z.number().describe('In the currency’s major unit (9.99)'),
  currency: z.string(),
  interval: z.string().describe('day, week, month or year'),
  interval_count: z.number().int(),
});

export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  hidden: z.boolean(),
  recommended: z.boolean(),
  free: z.boolean(),
  feature_list: z.array(z.string()),
  available_space: z.number().nullable().describe('Storage the plan gives, in bytes; null: unlimited'),
  position: z.number().int(),
  prices: z.array(priceSchema),
});

export const productsResponse = z.object({
  pagination: z.object({
    data: z.array(productSchema),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
  }),
});

export const planChoiceBody = z.object({
  product_id: z.coerce.number().int().positive(),
  price_id: z.coerce.number().int().positive(),
});

export const urlResponse = z.object({ url: z.string() });
export const messageResponse = z.object({ message: z.string() });

export const subscriptionResponse = z.object({
  subscription: z
    .object({
      id: z.number().int(),
      status: z.string().describe('Stripe’s status: active, trialing, past_due, canceled…'),
      valid: z.boolean(),
      on_grace_period: z.boolean().describe('Cancelled, and the paid period has not ended: it can be resumed'),
      renews_at: z.string().nullable(),
      ends_at: z.string().nullable(),
      cancelled_at: z.string().nullable(),
      product: productSchema.nullable(),
      price: priceSchema.nullable(),
    })
    .nullable(),
  plan: productSchema.nullable().describe('The plan that decides your space now (the free plan without a subscription)'),
  space: z.object({ used: z.number(), available: z.number().nullable(), over: z.boolean() }),
});

export const invoicesResponse = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      number: z.string().nullable(),
      status: z.string().nullable(),
      amount: z.number(),
      currency: z.string(),
      created_at: z.string(),
      url: z.string().nullable(),
      pdf: z.string().nullable(),
    }),
  ),
});

export const webhookResponse = z.object({ received: z.boolean(), duplicate: z.boolean() });
