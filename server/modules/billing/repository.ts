import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, PriceRow, PricesTable, ProductRow, ProductsTable, SubscriptionRow, SubscriptionsTable } from '../../db/types.js';
import { prepared } from '../../db/prepared.js';
import { parseJson } from '../../lib/json.js';
import { nowIso } from '../../lib/time.js';
import { GIVING_STATUSES, isValid } from './validity.js';

export type ProductWithPrices = ProductRow & { prices: PriceRow[] };

// Read for the payer's space limit before every new file (drive/space-limits.ts): compiled once.
const subscriptionsNewestFirst = prepared(
  () => 'one',
  (db, { userId }: { userId: number }) => db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).orderBy('id', 'desc'),
);

/** The SQL of plans, prices, customers, subscriptions and handled events. */
export class BillingRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Plans in display order with their prices; hidden ones only when asked. */
  async products({ includeHidden = false } = {}): Promise<ProductWithPrices[]> {
    let query = this.db.selectFrom('products').selectAll().orderBy('position').orderBy('id');
    if (!includeHidden) query = query.where('hidden', '=', 0);
    const products = await query.execute();
    if (products.length === 0) return [];
    const prices = await this.db
      .selectFrom('prices')
      .selectAll()
      .where(
        'product_id',
        'in',
        products.map((p) => p.id),
      )
      .orderBy('id')
      .execute();
    return products.map((product) => ({ ...product, prices: prices.filter((price) => price.product_id === product.id) }));
  }

  /** Every text a plan shows (names, descriptions, features), for the translation editor. */
  async productTexts(): Promise<string[]> {
    const rows = await this.db.selectFrom('products').select(['name', 'description', 'feature_list']).orderBy('position').orderBy('id').execute();
    return rows.flatMap((row) => [row.name, row.description ?? '', ...parseJson<string[]>(row.feature_list, [])]).filter((text) => text.trim() !== '');
  }

  async product(id: number): Promise<ProductRow | undefined> {
    return this.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async price(id: number): Promise<PriceRow | undefined> {
    return this.db.selectFrom('prices').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async priceByGatewayId(gatewayId: string): Promise<PriceRow | undefined> {
    return this.db.selectFrom('prices').selectAll().where('gateway_id', '=', gatewayId).executeTakeFirst();
  }

  /** The free plan (the first one, if an admin made several). */
  async freeProduct(): Promise<ProductRow | undefined> {
    return this.db.selectFrom('products').selectAll().where('free', '=', 1).orderBy('position').orderBy('id').executeTakeFirst();
  }

  /** Records the Stripe id made for a product or price, unless another request got there first; answers the one kept. */
  async setProductGatewayId(id: number, gatewayId: string): Promise<string> {
    await this.db.updateTable('products').set({ gateway_id: gatewayId, updated_at: nowIso() }).where('id', '=', id).where('gateway_id', 'is', null).execute();
    const row = await this.db.selectFrom('products').select('gateway_id').where('id', '=', id).executeTakeFirstOrThrow();
    return row.gateway_id ?? gatewayId;
  }

  async setPriceGatewayId(id: number, gatewayId: string): Promise<string> {
    await this.db.updateTable('prices').set({ gateway_id: gatewayId, updated_at: nowIso() }).where('id', '=', id).where('gateway_id', 'is', null).execute();
    const row = await this.db.selectFrom('prices').select('gateway_id').where('id', '=', id).executeTakeFirstOrThrow();
    return row.gateway_id ?? gatewayId;
  }

  async customerOf(userId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('billing_customers').select('gateway_id').where('user_id', '=', userId).executeTakeFirst();
    return row?.gateway_id;
  }

  async userOfCustomer(gatewayId: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('billing_customers').select('user_id').where('gateway_id', '=', gatewayId).executeTakeFirst();
    return row?.user_id;
  }

  /** Keeps the first customer made for a user; answers the one kept. */
  async saveCustomer(userId: number, gatewayId: string): Promise<string> {
    await this.db
      .insertInto('billing_customers')
      .values({ user_id: userId, gateway_id: gatewayId, created_at: nowIso() })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return (await this.customerOf(userId)) ?? gatewayId;
  }

  // The admin's plan editor: `db` is its transaction when it records the change beside it.

  async insertProduct(values: Insertable<ProductsTable>, db: Kysely<Database> = this.db): Promise<number> {
    return (await db.insertInto('products').values(values).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateProduct(id: number, changes: Updateable<ProductsTable>, db: Kysely<Database> = this.db): Promise<void> {
    await db.updateTable('products').set(changes).where('id', '=', id).execute();
  }

  /** The position after the last plan (0 for the first). */
  async nextProductPosition(db: Kysely<Database> = this.db): Promise<number> {
    const row = await db
      .selectFrom('products')
      .select((eb) => eb.fn.max('position').as('last'))
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
  }

  async insertPrice(values: Insertable<PricesTable>, db: Kysely<Database> = this.db): Promise<number> {
    return (await db.insertInto('prices').values(values).returning('id').executeTakeFirstOrThrow()).id;
  }

  async deletePrice(id: number, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('prices').where('id', '=', id).execute();
  }

  pricesOf(productId: number, { unsyncedOnly = false } = {}): Promise<PriceRow[]> {
    let query = this.db.selectFrom('prices').selectAll().where('product_id', '=', productId);
    if (unsyncedOnly) query = query.where('gateway_id', 'is', null);
    return query.orderBy('id').execute();
  }

  /** Whether any subscription, valid or not, was bought at this price (its row must stay). */
  async priceInUse(priceId: number): Promise<boolean> {
    return (await this.db.selectFrom('subscriptions').select('id').where('price_id', '=', priceId).executeTakeFirst()) !== undefined;
  }

  /** A plan's subscriptions: all of them per price, and how many are valid now (isValid's rule, in SQL). */
  async subscriberCounts(productId: number): Promise<{ perPrice: Map<number, number>; valid: number }> {
    const perPrice = await this.db
      .selectFrom('subscriptions')
      .select(['price_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('product_id', '=', productId)
      .groupBy('price_id')
      .execute();
    const now = nowIso();
    const valid = await this.db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('product_id', '=', productId)
      .where('gateway_status', 'in', [...GIVING_STATUSES])
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
      .executeTakeFirstOrThrow();
    return { perPrice: new Map(perPrice.map((row) => [row.price_id, Number(row.n)])), valid: Number(valid.n) };
  }

  subscription(id: number): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The admin's cancel writes the state at once (the webhook later writes the same); `db` is its transaction. */
  async updateSubscription(id: number, changes: Updateable<SubscriptionsTable>, db: Kysely<Database> = this.db): Promise<void> {
    await db.updateTable('subscriptions').set(changes).where('id', '=', id).execute();
  }

  async subscriptionsOf(userId: number): Promise<SubscriptionRow[]> {
    return subscriptionsNewestFirst(this.db, { userId }, null);
  }

  /** The subscription that decides a user's plan: the newest valid one. */
  async validSubscriptionOf(userId: number): Promise<SubscriptionRow | undefined> {
    return (await this.subscriptionsOf(userId)).find((row) => isValid(row));
  }

  /** The bytes a user's valid subscription gives: a number, null (unlimited), or undefined when they hold none. */
  /** The plan of a user's valid subscription, if any. */
  async subscribedProduct(userId: number): Promise<ProductRow | undefined> {
    const subscription = await this.validSubscriptionOf(userId);
    return subscription ? this.product(subscription.product_id) : undefined;
  }

  async subscribedSpace(userId: number): Promise<number | null | undefined> {
    const subscription = await this.validSubscriptionOf(userId);
    if (!subscription) return undefined;
    const product = await this.product(subscription.product_id);
    return product ? product.available_space : undefined;
  }

  /**
   * Applies one webhook event: remembers its id and, when `change` is given,
   * writes the subscription, in one transaction. False when the event was
   * handled before (a replay): nothing is written.
   */
  async applyEvent(event: { id: string; type: string }, change: ((trx: Transaction<Database>) => Promise<void>) | null): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('billing_events')
        .values({ id: event.id, type: event.type, received_at: nowIso() })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      if (change) await change(trx);
      return true;
    });
  }

  async eventSeen(id: string): Promise<boolean> {
    return (await this.db.selectFrom('billing_events').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async upsertSubscription(trx: Transaction<Database>, values: Omit<SubscriptionRow, 'id' | 'created_at' | 'updated_at'>): Promise<void> {
    const now = nowIso();
    await trx
      .insertInto('subscriptions')
      .values({ ...values, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('gateway_id').doUpdateSet({
          product_id: values.product_id,
          price_id: values.price_id,
          gateway_status: values.gateway_status,
          gateway_customer_id: values.gateway_customer_id,
          renews_at: values.renews_at,
          ends_at: values.ends_at,
          cancelled_at: values.cancelled_at,
          updated_at: now,
        }),
      )
      .execute();
  }
}
