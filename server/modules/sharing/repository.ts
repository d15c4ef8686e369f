import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { displayName } from '../users/presenter.js';
import type { SharePermission, ShareOut } from './schemas.js';

type Db = Kysely<Database>;

/** The rows behind sharing with people; the access policy decides who may touch them. */
export class SharesRepository {
  constructor(private readonly db: Db) {}

  async forEntry(entryId: number): Promise<ShareOut[]> {
    const rows = await this.db
      .selectFrom('entry_shares')
      .innerJoin('users', 'users.id', 'entry_shares.user_id')
      .innerJoin('file_entries', 'file_entries.id', 'entry_shares.entry_id')
      .select([
        'entry_shares.id',
        'entry_shares.permission',
        'entry_shares.created_at',
        'file_entries.hash',
        'users.id as user_id',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.avatar',
      ])
      .where('entry_shares.entry_id', '=', entryId)
      .orderBy('entry_shares.id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      entry_id: row.hash,
      permission: row.permission as SharePermission,
      user: { id: row.user_id, display_name: displayName(row), email: row.email, avatar: row.avatar },
      created_at: row.created_at,
    }));
  }

  find(shareId: number) {
    return this.db
      .selectFrom('entry_shares')
      .innerJoin('file_entries', 'file_entries.id', 'entry_shares.entry_id')
      .select([
        'entry_shares.id',
        'entry_shares.user_id',
        'entry_shares.entry_id',
        'file_entries.hash',
        'file_entries.name',
        'file_entries.type',
        'file_entries.owner_id',
        'file_entries.workspace_id',
      ])
      .where('entry_shares.id', '=', shareId)
      .executeTakeFirst();
  }

  /** Shares the entry with the user, or changes the permission of an existing share; answers whether it is new. */
  async upsert(entryId: number, userId: number, permission: SharePermission, sharedBy: number): Promise<boolean> {
    const now = nowIso();
    const existing = await this.db.selectFrom('entry_shares').select('id').where('entry_id', '=', entryId).where('user_id', '=', userId).executeTakeFirst();
    if (existing) {
      await this.db.updateTable('entry_shares').set({ permission, updated_at: now }).where('id', '=', existing.id).execute();
      return false;
    }
    await this.db
      .insertInto('entry_shares')
      .values({ entry_id: entryId, user_id: userId, permission, shared_by: sharedBy, created_at: now, updated_at: now })
      .onConflict((oc) => oc.columns(['entry_id', 'user_id']).doUpdateSet({ permission, updated_at: now }))
      .execute();
    return true;
  }

  async setPermission(shareId: number, permission: SharePermission): Promise<void> {
    await this.db.updateTable('entry_shares').set({ permission, updated_at: nowIso() }).where('id', '=', shareId).execute();
  }

  async delete(shareId: number): Promise<void> {
    await this.db.deleteFrom('entry_shares').where('id', '=', shareId).execute();
  }
}
