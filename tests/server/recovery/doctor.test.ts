import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb } from '../../../server/db/index.js';
import { databaseProblems } from '../../../server/db/integrity.js';
import type { FileEntryRow } from '../../../server/db/types.js';
import { examine, runDoctor } from '../../../server/jobs/doctor.js';
import type { Finding } from '../../../server/lib/findings.js';
import { createFolder, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, DIALECT, type TestApp } from '../support/test-app.js';
import { createTusUpload, patchTus } from '../uploads/support.js';
import { backdate, plant } from './support.js';
import { servicesOf } from '../support/services-handle.js';

const HOUR = 60 * 60 * 1000;

/**
 * The doctor on a database and disk damaged on purpose, one damage of every
 * kind: it names each, changes nothing without --repair, and with it fixes
 * what is safe and only that (never deleting bytes an entry points to).
 */
describe('npm run doctor', () => {
  let t: TestApp;
  let drive: string;
  let tus: string;
  let entries: Record<string, FileEntryRow>;
  const keyOf = (e: FileEntryRow) => path.join(drive, e.disk_prefix!, e.file_name!);
  let finishing: { key: string; location: string; client: Awaited<ReturnType<typeof signedInUser>>['client'] };
  let folderHash: string;
  let otherFolderHash: string;

  // Every test gets the damage afresh on a store of its own: a repair in one test must not hide
  // the damage another test looks for, whatever order they run in.
  beforeEach(async () => {
    t = await createTestApp();
    entries = {};
    drive = path.join(t.config.storageDir, 'drive');
    tus = path.join(t.config.storageDir, 'tus');
    const { user, client } = await signedInUser(t.app);
    folderHash = await createFolder(client, 'Projects');
    otherFolderHash = await createFolder(client, 'Other');
    for (const name of ['missing', 'appended', 'overwritten', 'recorded-wrong', 'intact']) {
      entries[name] = await uploadFile(t.app, user, { name: `${name}.txt`, content: `the bytes of ${name}`, parentId: folderHash });
    }
    await uploadFile(t.app, user, { name: 'elsewhere.txt', content: 'other bytes', parentId: otherFolderHash });

    // An acknowledged tus upload whose finish never answered (over an hour ago).
    const content = Buffer.from('a finished upload waiting for its entry');
    const created = await createTusUpload(client, content.length, { name: 'waiting.txt', parentId: '0' });
    const location = created.headers.location as string;
    expect((await patchTus(client, location, 0, content)).statusCode).toBe(204);
    finishing = { key: location.split('/').pop()!, location, client };

    // The damage.
    const db = servicesOf(t.app).db.kysely;
    await fs.rm(keyOf(entries.missing!));
    await fs.appendFile(keyOf(entries.appended!), ' and some more');
    await fs.writeFile(keyOf(entries.overwritten!), Buffer.alloc(Number(entries.overwritten!.file_size), 'x'));
    await db
      .updateTable('file_entries')
      .set({ file_size: Number(entries['recorded-wrong']!.file_size) + 5 })
      .where('id', '=', entries['recorded-wrong']!.id)
      .execute();
    await db.updateTable('file_entries').set({ file_size: 999 }).where('hash', '=', otherFolderHash).execute();
    await plant(path.join(drive, 'strayprefix', 'strayname'), 'bytes of nothing');
    await plant(path.join(drive, entries.intact!.disk_prefix!, 'stray-beside'), 'more bytes of nothing');
    await plant(path.join(drive, '.tmp', 'cutoff.part'), 'half a file');
    await fs.mkdir(path.join(drive, 'emptyprefix'));
    await backdate(path.join(drive, 'emptyprefix'));
    await plant(path.join(tus, 'lonelyupload'), 'bytes');
    await plant(path.join(tus, 'lonelyupload.json'), '{}');
    const old = (ms: number) => new Date(Date.now() - ms).toISOString();
    await db
      .insertInto('upload_reservations')
      .values([
        { key: 'ghostupload', user_id: user.id, uploader_id: user.id, bytes: 1000, kind: 'tus', created_at: old(HOUR), expires_at: old(-HOUR) },
        { key: 'plain-ghost', user_id: user.id, uploader_id: user.id, bytes: 2000, kind: 'plain', created_at: old(2 * HOUR), expires_at: old(-HOUR) },
      ])
      .execute();
    await db
      .updateTable('upload_reservations')
      .set({ kind: 'finishing', created_at: old(2 * HOUR) })
      .where('key', '=', finishing.key)
      .execute();
    await backdate(path.join(tus, finishing.key));
    await backdate(path.join(tus, `${finishing.key}.json`));
  });
  afterEach(() => t.close());

  const summary = (findings: Finding[]) => findings.map((f) => `${f.check} ${f.subject}`).sort();
  const entryName = (name: string) => `entry ${entries[name]!.hash} ("${name}.txt")`;

  it('finds each kind of inconsistency, and changes nothing without --repair', async () => {
    const findings = await examine(servicesOf(t.app).storeChecks, { checksums: true });
    expect(summary(findings)).toEqual(
      [
        `missing-bytes ${entryName('missing')}`,
        `size ${entryName('appended')}`,
        `checksum ${entryName('appended')}`,
        `checksum ${entryName('overwritten')}`,
        `size ${entryName('recorded-wrong')}`,
        `folder-size entry ${folderHash} ("Projects")`,
        `folder-size entry ${otherFolderHash} ("Other")`,
        'unreferenced-bytes strayprefix/strayname',
        `unreferenced-bytes ${entries.intact!.disk_prefix}/stray-beside`,
        'temporary-file .tmp/cutoff.part',
        'empty-folder emptyprefix',
        'reservation-without-upload reservation ghostupload',
        'reservation-without-upload reservation plain-ghost',
        'upload-without-reservation upload lonelyupload',
        `unfinished-finish upload ${finishing.key}`,
      ].sort(),
    );
    // Only a size that the bytes' sha256 proves wrong in the record is repairable.
    const sizes = findings.filter((f) => f.check === 'size');
    expect(sizes.find((f) => f.subject === entryName('recorded-wrong'))!.fix).not.toBeNull();
    expect(sizes.find((f) => f.subject === entryName('appended'))!.fix).toBeNull();

    const lines: string[] = [];
    expect(await runDoctor(servicesOf(t.app).storeChecks, { repair: false, checksums: true }, (line) => lines.push(line))).toBe(1);
    expect(lines[0]).toBe('15 problem(s) found:');
    expect(lines.at(-1)).toBe('11 of them can be repaired safely: run again with --repair.');
    expect(await fs.stat(path.join(drive, 'strayprefix', 'strayname'))).toBeTruthy();
    expect(await fs.stat(path.join(drive, '.tmp', 'cutoff.part'))).toBeTruthy();
    expect(await servicesOf(t.app).db.kysely.selectFrom('upload_reservations').select('key').execute()).toHaveLength(3);
  });

  it('repairs what is safe, never deletes bytes an entry points to, and reports the rest', async () => {
    const lines: string[] = [];
    expect(await runDoctor(servicesOf(t.app).storeChecks, { repair: true, checksums: true }, (line) => lines.push(line))).toBe(1);
    const left = await examine(servicesOf(t.app).storeChecks, { checksums: true });
    expect(summary(left)).toEqual(
      [
        `missing-bytes ${entryName('missing')}`,
        `size ${entryName('appended')}`,
        `checksum ${entryName('appended')}`,
        `checksum ${entryName('overwritten')}`,
      ].sort(),
    );
    expect(lines).toContain('After repair, 4 problem(s) remain:');

    for (const name of ['appended', 'overwritten', 'recorded-wrong', 'intact']) await expect(fs.stat(keyOf(entries[name]!))).resolves.toBeTruthy();
    await expect(fs.stat(path.join(drive, 'strayprefix'))).rejects.toThrow();
    await expect(fs.stat(path.join(drive, 'emptyprefix'))).rejects.toThrow();
    await expect(fs.stat(path.join(drive, '.tmp', 'cutoff.part'))).rejects.toThrow();
    await expect(fs.stat(path.join(tus, 'lonelyupload.json'))).rejects.toThrow();

    const db = servicesOf(t.app).db.kysely;
    const sizeOf = async (hash: string) =>
      Number((await db.selectFrom('file_entries').select('file_size').where('hash', '=', hash).executeTakeFirstOrThrow()).file_size);
    expect(await sizeOf(entries['recorded-wrong']!.hash)).toBe(Number(entries['recorded-wrong']!.file_size));
    expect(await sizeOf(otherFolderHash)).toBe('other bytes'.length);
    // The waiting upload is finishable again, and only its reservation is left.
    expect(await db.selectFrom('upload_reservations').select(['key', 'kind']).execute()).toEqual([{ key: finishing.key, kind: 'tus' }]);
    const finished = await finishing.client.post('/api/v1/tus/entries', { uploadKey: finishing.key });
    expect(finished.statusCode).toBe(200);
    expect(finished.json().fileEntry.name).toBe('waiting.txt');
  });

  it.runIf(DIALECT === 'sqlite')('reports what PRAGMA quick_check finds in a damaged SQLite file', async () => {
    const db = servicesOf(t.app).db;
    expect(await databaseProblems(db.kysely, db.dialect)).toEqual([]);
    const copy = path.join(t.dataDir, 'damaged.sqlite');
    const { sql } = await import('kysely');
    await sql`vacuum into ${copy}`.execute(db.kysely);
    // One index's root page becomes noise.
    const { rows } = await sql<{ rootpage: number }>`select rootpage from sqlite_master where name = 'file_entries_path_index'`.execute(db.kysely);
    const file = await fs.open(copy, 'r+');
    await file.write(Buffer.alloc(4096, 0xa5), 0, 4096, (rows[0]!.rootpage - 1) * 4096);
    await file.close();
    const damaged = createDb({ dialect: 'sqlite', file: copy });
    try {
      expect((await databaseProblems(damaged.kysely, 'sqlite')).length).toBeGreaterThan(0);
    } finally {
      await damaged.destroy();
    }
  });
});
