import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { buildApp, servicesOf } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { ensureFirstAdmin } from '../../../server/modules/setup/first-admin.js';
import { nowIso } from '../../../server/lib/time.js';
import { randomToken } from '../../../server/lib/tokens.js';
import type { Dialect } from '../../../server/db/index.js';
import type { Database } from '../../../server/db/types.js';
import { EXTRACTOR_VERSION } from '../../../server/modules/search/extract.js';
import { indexedWords } from '../../../server/modules/search/fold.js';
import { writeContent } from '../../../server/modules/search/repository.js';

/**
 * Seeds `admin`'s drive straight into the database (ids, paths and names as
 * the app makes them): `total` entries, the first `bigFolder` of them in a
 * folder whose hash is `bigfolder`, the rest at the root. Each file has a
 * text for content search too (BENCH_CONTENT=0 leaves them out).
 */
export async function seedDrive(dataDir: string, admin: { email: string; password: string }, total: number, bigFolder: number): Promise<void> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  });
  const app = await buildApp({ config, logger: false });
  await ensureFirstAdmin(servicesOf(app).db.kysely, admin);
  const db = servicesOf(app).db.kysely;
  const owner = (await db.selectFrom('users').select('id').where('email', '=', admin.email).executeTakeFirstOrThrow()).id;
  const now = nowIso();
  const words = ['report', 'invoice', 'holiday', 'photo', 'budget', 'notes', 'draft', 'final', 'scan', 'meeting'];
  await db.transaction().execute(async (trx) => {
    const folder = await trx
      .insertInto('file_entries')
      .values({
        hash: 'bigfolder',
        name: 'Big folder',
        type: 'folder',
        file_size: 0,
        owner_id: owner,
        workspace_id: null,
        parent_id: null,
        path: '',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('file_entries')
      .set({ path: String(folder.id) })
      .where('id', '=', folder.id)
      .execute();
    // Made and written 500 at a time, so a million entries need no more memory than a hundred thousand.
    for (let start = 0; start < total - 1; start += 500) {
      const rows = [];
      for (let i = start; i < Math.min(start + 500, total - 1); i += 1) {
        const inBig = i < bigFolder;
        rows.push({
          hash: randomToken(12),
          name: `${words[i % words.length]} ${i}.pdf`,
          type: 'pdf',
          mime: 'application/pdf',
          extension: 'pdf',
          file_size: 1000 + i,
          owner_id: owner,
          workspace_id: null,
          parent_id: inBig ? folder.id : null,
          path: '',
          created_at: now,
          updated_at: new Date(Date.parse(now) - i * 1000).toISOString(),
        });
      }
      await trx.insertInto('file_entries').values(rows).execute();
    }
    // Paths as the app writes them: the ancestors' ids and the entry's own.
    await trx
      .updateTable('file_entries')
      .set({ path: sql<string>`case when parent_id is null then cast(id as text) else cast(parent_id as text) || '/' || cast(id as text) end` })
      .where('path', '=', '')
      .execute();
  });
  if (process.env.BENCH_CONTENT !== '0') await seedTexts(servicesOf(app).db.kysely, servicesOf(app).db.dialect, owner);
  // PostgreSQL's autovacuum would analyse the new rows within a minute; without statistics the planner
  // takes the table for empty and picks plans 100x slower (45 ms for a folder page instead of 0.2). It
  // vacuums them too, soon after: until then the path update's million dead versions sit in the heap and
  // in the trigram index (and its pending list of new entries, ~160 pages, scanned by every search), which
  // doubled a 1M name search's index work and heap pages (643 → 293 buffers for "invoice 12").
  if (process.env.DATABASE_URL) await sql`vacuum analyze`.execute(db);
  await app.close();
}

/** Words of the seeded texts: 400 common ones, and "harbour" in one text of 100 (the content-search line's query). */
const VOCABULARY = Array.from({ length: 400 }, (_, i) => `word${i.toString(36)}`);

/**
 * Every seeded file gets a text of 120 words (content search, issue 35), written as the extraction job
 * writes it (search/repository.ts), 500 files per transaction.
 */
async function seedTexts(db: Kysely<Database>, dialect: Dialect, owner: number): Promise<void> {
  const ids = (await db.selectFrom('file_entries').select('id').where('owner_id', '=', owner).where('type', '!=', 'folder').orderBy('id').execute()).map(
    (r) => r.id,
  );
  const now = nowIso();
  for (let start = 0; start < ids.length; start += 500) {
    await db.transaction().execute(async (trx) => {
      for (const id of ids.slice(start, start + 500)) {
        const words: string[] = [];
        for (let w = 0; w < 120; w += 1) words.push(VOCABULARY[(id * 31 + w * 17) % VOCABULARY.length]!);
        if (id % 100 === 0) words.splice(60, 0, 'quarterly', 'harbour');
        const text = words.join(' ');
        await writeContent(trx, dialect, { entryId: id, sha256: null, status: 'ok', text, truncated: false }, indexedWords(text), EXTRACTOR_VERSION, now);
      }
    });
  }
}
