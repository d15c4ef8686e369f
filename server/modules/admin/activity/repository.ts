import type { Insertable, Kysely } from 'kysely';
import type { AdminActivityTable, Database } from '../../../db/types.js';
import { contains } from '../paging.js';

type Executor = Kysely<Database>;

export async function insertActivity(db: Executor, values: Insertable<AdminActivityTable>): Promise<void> {
  await db.insertInto('admin_activity').values(values).execute();
}

/** One page of the log, newest first, and how many entries match. */
export async function activityPage(db: Executor, query: { page: number; perPage: number; query?: string | undefined; action?: string | undefined }) {
  let base = db.selectFrom('admin_activity');
  if (query.action) base = base.where('action', '=', query.action);
  if (query.query) {
    const text = query.query;
    base = base.where((eb) => eb.or([contains('actor_label', text), contains('subject_label', text), contains('action', text)]));
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    // Insertion order, newest first: the id is the database's counter, which every
    // process shares; their clocks (created_at) need not agree to the millisecond.
    .orderBy('id', 'desc')
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage)
    .execute();
  return { rows, total: Number(total) };
}
