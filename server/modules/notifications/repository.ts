import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import { nowIso } from '../../lib/time.js';
import type { ChannelMap, NotificationData } from './types.js';

type Db = Kysely<Database>;

export interface PushSubscriptionRow {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** The rows behind notifications; a user only ever reaches their own. */
export class NotificationsRepository {
  constructor(private readonly db: Db) {}

  async insert(userId: number, type: string, data: NotificationData, db: Db = this.db): Promise<string> {
    const id = randomUUID();
    await db
      .insertInto('notifications')
      .values({ id, user_id: userId, type, data: JSON.stringify(data), read_at: null, created_at: nowIso() })
      .execute();
    return id;
  }

  async page(userId: number, page: number, perPage: number) {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('notifications')
        .select(['id', 'type', 'data', 'read_at', 'created_at'])
        .where('user_id', '=', userId)
        // Insertion order, newest first: times tie within a millisecond and the
        // ids are random; `seq` is the database's own counter (migration 2026_11_26_000010).
        .orderBy('seq', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    ]);
    return {
      rows: rows.map((row) => ({ ...row, data: parseJson<NotificationData>(row.data, { image: '', lines: [], mainAction: { label: '', action: '/' } }) })),
      total: Number(total?.count ?? 0),
    };
  }

  async unreadCount(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** Marks the user's own notifications among `ids`; others' ids match nothing. */
  async markRead(userId: number, ids: string[]): Promise<number> {
    if (!ids.length) return 0;
    const result = await this.db
      .updateTable('notifications')
      .set({ read_at: nowIso() })
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async preferences(userId: number): Promise<Map<string, Partial<ChannelMap>>> {
    const rows = await this.db.selectFrom('notification_preferences').select(['notif_id', 'channels']).where('user_id', '=', userId).execute();
    return new Map(rows.map((row) => [row.notif_id, parseJson<Partial<ChannelMap>>(row.channels, {})]));
  }

  async savePreferences(userId: number, selections: { notif_id: string; channels: ChannelMap }[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const selection of selections) {
        await trx.deleteFrom('notification_preferences').where('user_id', '=', userId).where('notif_id', '=', selection.notif_id).execute();
        await trx
          .insertInto('notification_preferences')
          .values({ user_id: userId, notif_id: selection.notif_id, channels: JSON.stringify(selection.channels), updated_at: nowIso() })
          .execute();
      }
    });
  }

  /** One row per endpoint: a browser subscribing again (or for another account) takes the row over. */
  async savePushSubscription(userId: number, sub: { endpoint: string; p256dh: string; auth: string; userAgent: string | null }): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('endpoint', '=', sub.endpoint).execute();
    await this.db
      .insertInto('push_subscriptions')
      .values({ user_id: userId, endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth, user_agent: sub.userAgent, created_at: nowIso() })
      .execute();
  }

  async deletePushSubscription(userId: number, endpoint: string): Promise<boolean> {
    const result = await this.db.deleteFrom('push_subscriptions').where('user_id', '=', userId).where('endpoint', '=', endpoint).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deletePushSubscriptionById(id: number): Promise<void> {
    await this.db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
  }

  pushSubscriptions(userId: number): Promise<PushSubscriptionRow[]> {
    return this.db.selectFrom('push_subscriptions').select(['id', 'endpoint', 'p256dh', 'auth']).where('user_id', '=', userId).execute();
  }
}
