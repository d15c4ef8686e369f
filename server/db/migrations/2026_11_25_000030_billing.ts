import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Plans and billing (spec §3 Product, Price; §6 subscribed).
 *
 * A product (plan) carries the storage space it gives (`available_space`,
 * bytes; null: unlimited); the free plan's applies to users without a valid
 * subscription. Prices hold amounts in the currency's minor unit, so money is
 * never a float, and the Stripe price they map to once created there.
 * Subscriptions mirror Stripe's and change only from verified webhooks;
 * `billing_events` remembers every event id handled, so a replay changes
 * nothing. A user's Stripe customer is kept once in `billing_customers`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await withId(db, db.schema.createTable('products'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('feature_list', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recommended', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('free', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('available_space', 'bigint')
    .addColumn('gateway_id', 'varchar(255)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('prices'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('interval', 'varchar(8)', (c) => c.notNull())
    .addColumn('interval_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('gateway_id', 'varchar(255)', (c) => c.unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('prices_product_index').on('prices').column('product_id').execute();

  await db.schema
    .createTable('billing_customers')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('gateway_id', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('subscriptions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
    .addColumn('price_id', 'integer', (c) => c.notNull().references('prices.id'))
    .addColumn('gateway_name', 'varchar(32)', (c) => c.notNull())
    .addColumn('gateway_id', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('gateway_customer_id', 'varchar(255)')
    .addColumn('gateway_status', 'varchar(32)', (c) => c.notNull())
    .addColumn('renews_at', ts)
    .addColumn('ends_at', ts)
    .addColumn('cancelled_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_user_index').on('subscriptions').column('user_id').execute();

  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(100)', (c) => c.notNull())
    .addColumn('received_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('billing_events').execute();
  await db.schema.dropTable('subscriptions').execute();
  await db.schema.dropTable('billing_customers').execute();
  await db.schema.dropTable('prices').execute();
  await db.schema.dropTable('products').execute();
}
