import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Notifications (spec §3): the in-app rows, each user's channel choices per
 * notification type, and the browsers subscribed to web push (one row per
 * push endpoint, which identifies a browser profile).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('read_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user_created_index').on('notifications').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('notifications_user_read_index').on('notifications').columns(['user_id', 'read_at']).execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('notif_id', 'varchar(16)', (c) => c.notNull())
    .addColumn('channels', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'notif_id'])
    .execute();

  await withId(db, db.schema.createTable('push_subscriptions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'varchar(2048)', (c) => c.notNull().unique())
    .addColumn('p256dh', 'varchar(255)', (c) => c.notNull())
    .addColumn('auth', 'varchar(255)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user_index').on('push_subscriptions').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('notification_preferences').execute();
  await db.schema.dropTable('notifications').execute();
}
