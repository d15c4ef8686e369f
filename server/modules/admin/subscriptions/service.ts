import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { Database } from '../../../db/types.js';
import { Conflict, NotFound } from '../../../lib/errors.js';
import { nowIso } from '../../../lib/time.js';
import { call } from '../../billing/call.js';
import type { BillingRepository } from '../../billing/repository.js';
import { subscriptionTable, type SubscriptionTableQuery } from '../../billing/subscription-table.repository.js';
import { userById } from '../../users/accounts.repository.js';
import { isValid } from '../../billing/validity.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import { pageOf } from '../paging.js';

export const SUBSCRIPTION_NOT_FOUND = 'This subscription does not exist.';
export const SUBSCRIPTION_ENDED = 'This subscription has already ended.';
export const STRIPE_NOT_CONFIGURED = 'Stripe is not configured, so this Stripe subscription cannot be cancelled there.';

export { SUBSCRIPTION_SORTS } from '../../billing/subscription-table.repository.js';

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

  async list(query: SubscriptionTableQuery) {
    const { rows, total } = await subscriptionTable(this.db, query);
    return pageOf(
      rows.map(({ gateway_status, amount, currency, interval, interval_count, ...row }) => ({
        ...row,
        status: gateway_status,
        valid: isValid({ gateway_status, ends_at: row.ends_at }),
        price: { amount, currency, interval, interval_count },
      })),
      query,
      total,
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
