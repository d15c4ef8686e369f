import { z } from 'zod';

/**
 * The plan editor's wire contract. Amounts here are integers in the
 * currency's minor unit (999 for 9.99), as they are kept and as Stripe takes
 * them; the public pricing call shows major units.
 */

/** ISO 4217 codes the runtime knows (Stripe's list is a subset; Stripe itself refuses the rest). */
export const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));
export const INTERVALS = ['day', 'week', 'month', 'year'] as const;

export const adminPrice = z
  .object({
    id: z.number().int(),
    product_id: z.number().int(),
    amount: z.number().int().describe('In the currency’s minor unit (999 for 9.99)'),
    currency: z.string(),
    interval: z.enum(INTERVALS),
    interval_count: z.number().int(),
    gateway_id: z.string().nullable().describe('The Stripe price, once created there'),
    subscribers: z.number().int().describe('Subscriptions on this price, valid or not'),
  })
  .meta({ id: 'AdminPrice' });

export const adminPlan = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    feature_list: z.array(z.string()),
    available_space: z.number().nullable().describe('Bytes the plan gives; null: unlimited'),
    trash_days: z.number().int().nullable().describe("Days the plan's trash keeps entries; null: the site's trash.keep_days"),
    position: z.number().int(),
    hidden: z.boolean(),
    recommended: z.boolean(),
    free: z.boolean(),
    gateway_id: z.string().nullable().describe('The Stripe product, once created there'),
    subscribers: z.number().int().describe('Valid subscriptions on this plan'),
    prices: z.array(adminPrice),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AdminPlan' });

export const planList = z.object({ plans: z.array(adminPlan) });
export const planResponse = z.object({ plan: adminPlan, message: z.string().optional().describe('Set when Stripe could not be updated') });

export const priceBody = z.object({
  amount: z.number().int().min(1).max(99_999_999).describe('Minor units (999 for 9.99); Stripe’s ceiling is 99,999,999'),
  currency: z
    .string()
    .trim()
    .transform((code) => code.toUpperCase())
    .refine((code) => CURRENCIES.has(code), { message: 'The selected :attribute is invalid.' }),
  interval: z.enum(INTERVALS),
  interval_count: z.number().int().min(1).max(12).default(1),
});

const planFields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullish(),
  feature_list: z.array(z.string().trim().min(1).max(200)).max(30).default([]),
  available_space: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().describe('Bytes; null: unlimited'),
  trash_days: z.number().int().min(1).max(3650).nullish().describe("Days trashed entries are kept; null or absent: the site's trash.keep_days"),
  position: z.number().int().min(0).max(10_000).optional(),
  hidden: z.boolean().default(false),
  recommended: z.boolean().default(false),
  free: z.boolean().default(false),
};

export const createPlanBody = z.object({ ...planFields, prices: z.array(priceBody).max(10).default([]) });
export const updatePlanBody = z.object(planFields);
export const planIdParam = z.object({ id: z.coerce.number().int().positive() });
export const priceIdParam = z.object({ id: z.coerce.number().int().positive(), priceId: z.coerce.number().int().positive() });

export type PlanFields = z.infer<typeof updatePlanBody>;
export type PriceInput = z.infer<typeof priceBody>;
