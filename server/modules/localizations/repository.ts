import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { updateUser } from '../users/accounts.repository.js';

export interface LocalizationRow {
  id: number;
  language: string;
  name: string;
}

/** SQL for languages and their stored (overriding) lines. */
export class LocalizationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<LocalizationRow[]> {
    return this.db.selectFrom('localizations').select(['id', 'language', 'name']).orderBy('id').execute();
  }

  byLanguage(language: string): Promise<LocalizationRow | undefined> {
    return this.db.selectFrom('localizations').select(['id', 'language', 'name']).where('language', '=', language).executeTakeFirst();
  }

  byId(id: number): Promise<LocalizationRow | undefined> {
    return this.db.selectFrom('localizations').select(['id', 'language', 'name']).where('id', '=', id).executeTakeFirst();
  }

  async insert(language: string, name: string): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('localizations')
      .values({ language, name, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async rename(id: number, name: string): Promise<void> {
    await this.db.updateTable('localizations').set({ name, updated_at: nowIso() }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('localization_lines').where('localization_id', '=', id).execute();
      await trx.deleteFrom('localizations').where('id', '=', id).execute();
    });
  }

  async setUserLanguage(userId: number, language: string): Promise<void> {
    await updateUser(this.db, userId, { language, updated_at: nowIso() });
  }

  async storedLines(id: number): Promise<Record<string, string>> {
    const rows = await this.db.selectFrom('localization_lines').select(['key', 'value']).where('localization_id', '=', id).execute();
    return Object.fromEntries(rows.map((row) => [row.key, row.value]));
  }

  /** Upserts `set` and removes `unset`, in one transaction. */
  async writeLines(id: number, set: Record<string, string>, unset: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const keys = Object.keys(set);
      // Batches keep each statement well under SQLite's bound-parameter limit.
      for (let i = 0; i < keys.length; i += 200) {
        const rows = keys.slice(i, i + 200).map((key) => ({ localization_id: id, key, value: set[key]! }));
        await trx
          .insertInto('localization_lines')
          .values(rows)
          .onConflict((oc) => oc.columns(['localization_id', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
          .execute();
      }
      for (let i = 0; i < unset.length; i += 200) {
        await trx
          .deleteFrom('localization_lines')
          .where('localization_id', '=', id)
          .where('key', 'in', unset.slice(i, i + 200))
          .execute();
      }
      await trx.updateTable('localizations').set({ updated_at: nowIso() }).where('id', '=', id).execute();
    });
  }
}
