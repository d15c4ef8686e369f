import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';

export interface LocalizationSummary {
  id: number;
  language: string;
  name: string;
}

export class LocalizationsService {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<LocalizationSummary[]> {
    return this.db.selectFrom('localizations').select(['id', 'language', 'name']).orderBy('id').execute();
  }

  find(language: string): Promise<LocalizationSummary | undefined> {
    return this.db.selectFrom('localizations').select(['id', 'language', 'name']).where('language', '=', language).executeTakeFirst();
  }

  /** Remembers a signed-in user's choice on their account. */
  async setUserLanguage(userId: number, language: string): Promise<void> {
    await this.db.updateTable('users').set({ language, updated_at: nowIso() }).where('id', '=', userId).execute();
  }

  async lines(localizationId: number): Promise<Record<string, string>> {
    const rows = await this.db.selectFrom('localization_lines').select(['key', 'value']).where('localization_id', '=', localizationId).execute();
    return Object.fromEntries(rows.map((row) => [row.key, row.value]));
  }

  /**
   * The language to answer in: the user's choice, else the visitor's cookie,
   * else the site default, else the first that exists.
   */
  async resolve(candidates: (string | null | undefined)[]): Promise<LocalizationSummary | undefined> {
    const all = await this.list();
    for (const candidate of candidates) {
      const found = candidate && all.find((loc) => loc.language === candidate);
      if (found) return found;
    }
    return all[0];
  }
}
