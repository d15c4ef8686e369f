import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { contains } from '../admin/paging.js';
import { emailOf } from '../users/accounts.repository.js';

export const SUBSCRIPTION_SORTS = ['created_at', 'renews_at', 'ends_at'] as const;

export interface SubscriptionTableQuery {
  page: number;
  perPage: number;
  query?: string | undefined;
  orderBy?: (typeof SUBSCRIPTION_SORTS)[number] | undefined;
  orderDir: 'asc' | 'desc';
  status?: string | undefined;
  userId?: number | undefined;
  productId?: number | undefined;
}

/**
 * One page of every subscription with its plan, price and subscriber's email
 * (the admin's subscription table), and how many match. The email is users'
 * `emailOf`; the order ends with the id so no two rows tie.
 */
export async function subscriptionTable(db: Kysely<Database>, query: SubscriptionTableQuery) {
  let base = db
    .selectFrom('subscriptions')
    .innerJoin('products', 'products.id', 'subscriptions.product_id')
    .innerJoin('prices', 'prices.id', 'subscriptions.price_id');
  if (query.status) base = base.where('subscriptions.gateway_status', '=', query.status);
  if (query.userId) base = base.where('subscriptions.user_id', '=', query.userId);
  if (query.productId) base = base.where('subscriptions.product_id', '=', query.productId);
  if (query.query) {
    const text = query.query;
    base = base.where((eb) =>
      eb.or([contains(emailOf(db, eb.ref('subscriptions.user_id')), text), contains('products.name', text), contains('subscriptions.gateway_id', text)]),
    );
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .select((eb) => [
      'subscriptions.id',
      'subscriptions.user_id',
      emailOf(db, eb.ref('subscriptions.user_id')).as('user_email'),
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
  return { rows: rows.map((row) => ({ ...row, user_email: row.user_email ?? '' })), total: Number(total) };
}
