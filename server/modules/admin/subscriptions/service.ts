import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../../db/types.js';
import { Conflict, NotFound } from '../../../lib/errors.js';
import { nowIso } from '../../../lib/time.js';
import { call } from '../../billing/call.js';
import type { BillingRepository } from '../../billing/repository.js';
import { userById } from '../../users/accounts.repository.js';
import { isValid } from '../../billing/validity.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import { contains, pageOf } from '../paging.js';

export const SUBSCRIPTION_NOT_FOUND = 'This subscription does not exist.';
export const SUBSCRIPTION_ENDED = 'This subscription has already ended.';
export const STRIPE_NOT_CONFIGURED = 'Stripe is not configured, so this Stripe subscription cannot be cancelled there.';

export const SUBSCRIPTION_SORTS = ['created_at', 'renews_at', 'ends_at'] as const;

export interface SubscriptionQuery {
  page: number;
  perPage: number;
  query?: string | undefined;
  orderBy?: (typeof SUBSCRIPTION_SORTS)[number] | undefined;
  orderDir: 'asc' | 'desc';
  status?: string | undefined;
  userId?: number | undefined;
  productId?: number | undefined;
}

export interface AdminSubscriptionsDeps {
  /** The Stripe client while Stripe's keys are configured, else null. */
  stripe(): Promise<Stripe | null>;
  billing: Pick<BillingRepository, 'subscription' | 'updateSubscription'>;
}

/**
 * Every subscription with its user and plan. Cancelling one that Stripe
 * bills cancels it at Stripe first (Stripe stops charging, then its webhook
 * confirms); the row is written at once too, so the table shows what was
 * done without waiting for the webhook, which later writes the same state.
 */
export class AdminSubscriptionsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly activity: AdminActivity,
    private readonly deps: AdminSubscriptionsDeps,
  ) {}

  async list(query: SubscriptionQuery) {
    let base = this.db
      .selectFrom('subscriptions')
      .innerJoin('users', 'users.id', 'subscriptions.user_id')
      .innerJoin('products', 'products.id', 'subscriptions.product_id')
      .innerJoin('prices', 'prices.id', 'subscriptions.price_id');
    if (query.status) base = base.where('subscriptions.gateway_status', '=', query.status);
    if (query.userId) base = base.where('subscriptions.user_id', '=', query.userId);
    if (query.productId) base = base.where('subscriptions.product_id', '=', query.productId);
    if (query.query) {
      const text = query.query;
      base = base.where((eb) => eb.or([contains('users.email', text), contains('products.name', text), contains('subscriptions.gateway_id', text)]));
    }
    const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .select([
        'subscriptions.id',
        'subscriptions.user_id',
        'users.email as user_email',
        'subscriptions.product_id',
        'products.name as product_name',
        'subscriptions.price_id',
        'prices.amount',
        'prices.currency',
        'prices.interval',
        'prices.interval_count',
        'subscriptions.gateway_name',
        'subscriptions.gateway_id',
        'subscriptions.gateway_status',
        'subscriptions.renews_at',
        'subscriptions.ends_at',
        'subscriptions.cancelled_at',
        'subscriptions.created_at',
      ])
      .orderBy(`subscriptions.${query.orderBy ?? 'created_at'}`, query.orderDir)
      .orderBy('subscriptions.id', query.orderDir)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return pageOf(
      rows.map(({ gateway_status, amount, currency, interval, interval_count, ...row }) => ({
        ...row,
        status: gateway_status,
        valid: isValid({ gateway_status, ends_at: row.ends_at }),
        price: { amount, currency, interval, interval_count },
      })),
      query,
      Number(total),
    );
  }

  /** Ends a subscription now, or at the end of its paid period. */
  async cancel(caller: AdminCaller, id: number, atPeriodEnd: boolean): Promise<void> {
    const row = await this.deps.billing.subscription(id);
    if (!row) throw NotFound(SUBSCRIPTION_NOT_FOUND);
    const email = (await userById(this.db, row.user_id))?.email ?? '';
    if (!isValid(row)) throw Conflict(SUBSCRIPTION_ENDED);
    if (row.gateway_name === 'stripe') {
      const stripe = await this.deps.stripe();
      if (!stripe) throw Conflict(STRIPE_NOT_CONFIGURED);
      await call(() =>
        atPeriodEnd ? stripe.subscriptions.update(row.gateway_id, { cancel_at_period_end: true }) : stripe.subscriptions.cancel(row.gateway_id),
      );
    }
    const now = nowIso();
    const change = atPeriodEnd
      ? { ends_at: row.renews_at ?? now, renews_at: null, cancelled_at: now, updated_at: now }
      : { gateway_status: 'canceled', ends_at: now, renews_at: null, cancelled_at: now, updated_at: now };
    await this.db.transaction().execute(async (trx) => {
      await this.deps.billing.updateSubscription(id, change, trx);
      await this.activity.record(
        caller,
        {
          action: 'subscription.cancelled',
          subjectType: 'subscription',
          subjectId: id,
          subjectLabel: email,
          details: { at_period_end: atPeriodEnd, gateway_id: row.gateway_id },
        },
        trx,
      );
    });
  }
}
