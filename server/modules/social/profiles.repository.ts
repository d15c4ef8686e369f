import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/** A user's linked social profiles as the account screen lists them, oldest first. */
export const profilesOf = (db: Kysely<Database>, userId: number) =>
  db.selectFrom('social_profiles').select(['id', 'service_name', 'username', 'created_at']).where('user_id', '=', userId).orderBy('id').execute();
