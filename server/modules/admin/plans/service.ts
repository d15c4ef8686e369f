import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database, PriceRow, ProductRow } from '../../../db/types.js';
import { Conflict, HttpError, NotFound } from '../../../lib/errors.js';
import { parseJson } from '../../../lib/json.js';
import { nowIso } from '../../../lib/time.js';
import { call } from '../../billing/call.js';
import type { BillingRepository } from '../../billing/repository.js';
import { ensureStripePrice, ensureStripeProduct } from '../../billing/stripe-catalog.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import type { PlanFields, PriceInput } from './schemas.js';

export const PLAN_NOT_FOUND = 'This plan does not exist.';
export const PRICE_NOT_FOUND = 'This price does not exist.';
export const PRICE_IN_USE = 'This price has subscriptions. Hide the plan instead, or move its subscribers first.';
export const STRIPE_NOT_UPDATED = 'Saved here, but Stripe could not be reached. Save the plan again later to update it there.';

export interface AdminPlansDeps {
  /** The Stripe client while Stripe's keys are configured, else null (plans then live here only). */
  stripe(): Promise<Stripe | null>;
  catalog: BillingRepository;
}

type Interval = 'day' | 'week' | 'month' | 'year';
export type AdminPlan = Awaited<ReturnType<AdminPlansService['get']>>;

/**
 * The plans sold on the pricing page and their prices. With Stripe
 * configured every paid plan and price is made there as it is saved, so
 * checkout never waits on it; a price's amount is never edited in place
 * (Stripe cannot either, and subscribers keep the price they bought):
 * admins add a price and remove the old one.
 */
export class AdminPlansService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly activity: AdminActivity,
    private readonly deps: AdminPlansDeps,
  ) {}

  async list() {
    const products = await this.deps.catalog.products({ includeHidden: true });
    return Promise.all(products.map((product) => this.present(product)));
  }

  async get(id: number) {
    return this.present(await this.requirePlan(id));
  }

  async create(caller: AdminCaller, input: PlanFields & { prices: PriceInput[] }) {
    const now = nowIso();
    const id = await this.db.transaction().execute(async (trx) => {
      const position = input.position ?? (await this.deps.catalog.nextProductPosition(trx));
      const id = await this.deps.catalog.insertProduct({ ...this.columns(input), position, gateway_id: null, created_at: now, updated_at: now }, trx);
      for (const price of input.prices) await this.deps.catalog.insertPrice(priceColumns(id, price, now), trx);
      await this.activity.record(
        caller,
        { action: 'plan.created', subjectType: 'plan', subjectId: id, subjectLabel: input.name, details: { prices: input.prices } },
        trx,
      );
      return id;
    });
    const message = await this.syncToStripe(id);
    return { plan: await this.get(id), ...(message ? { message } : {}) };
  }

  async update(caller: AdminCaller, id: number, input: PlanFields) {
    const before = await this.requirePlan(id);
    const columns = this.columns(input);
    await this.db.transaction().execute(async (trx) => {
      await this.deps.catalog.updateProduct(
        id,
        { ...columns, ...(input.position === undefined ? {} : { position: input.position }), updated_at: nowIso() },
        trx,
      );
      const changed = Object.keys(columns).filter((key) => columns[key as keyof typeof columns] !== before[key as keyof ProductRow]);
      await this.activity.record(caller, { action: 'plan.updated', subjectType: 'plan', subjectId: id, subjectLabel: input.name, details: { changed } }, trx);
    });
    const message = await this.syncToStripe(id);
    return { plan: await this.get(id), ...(message ? { message } : {}) };
  }

  async addPrice(caller: AdminCaller, productId: number, input: PriceInput) {
    const product = await this.requirePlan(productId);
    await this.db.transaction().execute(async (trx) => {
      const id = await this.deps.catalog.insertPrice(priceColumns(productId, input, nowIso()), trx);
      await this.activity.record(
        caller,
        { action: 'price.created', subjectType: 'plan', subjectId: productId, subjectLabel: product.name, details: { price_id: id, ...input } },
        trx,
      );
    });
    const message = await this.syncToStripe(productId);
    return { plan: await this.get(productId), ...(message ? { message } : {}) };
  }

  /** A price nobody subscribed to goes (and stops being sold at Stripe); one with subscriptions stays. */
  async deletePrice(caller: AdminCaller, productId: number, priceId: number) {
    const product = await this.requirePlan(productId);
    const price = await this.deps.catalog.price(priceId);
    if (!price || price.product_id !== productId) throw NotFound(PRICE_NOT_FOUND);
    if (await this.deps.catalog.priceInUse(priceId)) throw Conflict(PRICE_IN_USE);
    await this.db.transaction().execute(async (trx) => {
      await this.deps.catalog.deletePrice(priceId, trx);
      await this.activity.record(
        caller,
        {
          action: 'price.deleted',
          subjectType: 'plan',
          subjectId: productId,
          subjectLabel: product.name,
          details: { price_id: priceId, amount: price.amount, currency: price.currency, interval: price.interval },
        },
        trx,
      );
    });
    let message: string | undefined;
    if (price.gateway_id) {
      const gatewayId = price.gateway_id;
      message = await this.tryStripe(async (stripe) => {
        await call(() => stripe.prices.update(gatewayId, { active: false }));
      });
    }
    return { plan: await this.get(productId), ...(message ? { message } : {}) };
  }

  /**
   * Makes Stripe match the plan: the product (name, description, sold or
   * not) and a Stripe price for each of ours. Free plans are never sold
   * through Stripe. A failure leaves our rows as saved and says so.
   */
  private async syncToStripe(productId: number): Promise<string | undefined> {
    const product = await this.requirePlan(productId);
    if (product.free === 1 && !product.gateway_id) return undefined;
    return this.tryStripe(async (stripe) => {
      const gatewayId = await ensureStripeProduct(stripe, this.deps.catalog, product);
      await call(() =>
        stripe.products.update(gatewayId, {
          name: product.name,
          // Stripe refuses an empty description; a cleared one keeps Stripe's last text, which nobody sees there.
          ...(product.description ? { description: product.description } : {}),
          active: product.hidden !== 1 && product.free !== 1,
        }),
      );
      if (product.free === 1) return;
      const prices = await this.deps.catalog.pricesOf(productId, { unsyncedOnly: true });
      for (const price of prices) await ensureStripePrice(stripe, this.deps.catalog, product, price);
    });
  }

  private async tryStripe(work: (stripe: Stripe) => Promise<void>): Promise<string | undefined> {
    const stripe = await this.deps.stripe();
    if (!stripe) return undefined;
    try {
      await work(stripe);
      return undefined;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 502) return STRIPE_NOT_UPDATED;
      throw error;
    }
  }

  private columns(input: PlanFields) {
    return {
      name: input.name,
      description: input.description ?? null,
      feature_list: JSON.stringify(input.feature_list),
      available_space: input.available_space,
      trash_days: input.trash_days ?? null,
      hidden: input.hidden ? 1 : 0,
      recommended: input.recommended ? 1 : 0,
      free: input.free ? 1 : 0,
    };
  }

  private async requirePlan(id: number): Promise<ProductRow> {
    const product = await this.deps.catalog.product(id);
    if (!product) throw NotFound(PLAN_NOT_FOUND);
    return product;
  }

  private async present(product: ProductRow) {
    const prices = await this.deps.catalog.pricesOf(product.id);
    const { perPrice: countOf, valid } = await this.deps.catalog.subscriberCounts(product.id);
    return {
      id: product.id,
      name: product.name,
      description: product.description ?? '',
      feature_list: parseJson<string[]>(product.feature_list, []),
      available_space: product.available_space === null ? null : Number(product.available_space),
      trash_days: product.trash_days,
      position: product.position,
      hidden: product.hidden === 1,
      recommended: product.recommended === 1,
      free: product.free === 1,
      gateway_id: product.gateway_id,
      subscribers: valid,
      prices: prices.map((price: PriceRow) => ({
        id: price.id,
        product_id: price.product_id,
        amount: price.amount,
        currency: price.currency,
        interval: price.interval as Interval,
        interval_count: price.interval_count,
        gateway_id: price.gateway_id,
        subscribers: countOf.get(price.id) ?? 0,
      })),
      created_at: product.created_at,
      updated_at: product.updated_at,
    };
  }
}

function priceColumns(productId: number, price: PriceInput, now: string) {
  return {
    product_id: productId,
    amount: price.amount,
    currency: price.currency,
    interval: price.interval,
    interval_count: price.interval_count,
    gateway_id: null,
    created_at: now,
    updated_at: now,
  };
}
