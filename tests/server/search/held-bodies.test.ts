import type { JobQueue } from '../../../server/lib/background.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeldBodies } from '../../../server/modules/search/held-bodies.js';
import { signedInUser } from '../support/drive-factories.js';
import { servicesOf } from '../support/services-handle.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const basic = (userId: number, token: string) => ({ authorization: `Basic ${Buffer.from(`${userId}:${token}`).toString('base64')}` });

describe('a small new file’s text, read from the bytes its upload had in hand', () => {
  it('keeps each body until taken once, for the content it was held for only, and within its memory bound', () => {
    const held = new HeldBodies();
    held.hold({ id: 1, sha256: 'aaa' }, Buffer.from('one'));
    held.hold({ id: 2, sha256: 'bbb' }, Buffer.from('two'));
    // Replaced meanwhile: the row's sha256 is another; the held bytes are not its content, and go.
    expect(held.take(2, 'ccc')).toBeNull();
    expect(held.take(2, 'bbb')).toBeNull();
    expect(held.take(1, 'aaa')?.toString()).toBe('one');
    expect(held.take(1, 'aaa')).toBeNull();
    // Past 16 MiB the oldest go first.
    const MiB = 1024 * 1024;
    for (let id = 10; id < 15; id += 1) held.hold({ id, sha256: `s${id}` }, Buffer.alloc(4 * MiB));
    expect(held.size).toBe(4);
    expect(held.take(10, 's10')).toBeNull();
    expect(held.take(14, 's14')?.length).toBe(4 * MiB);
  });

  describe('through a WebDAV PUT', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('indexes the text of a small PUT without reading it back from the disk', async () => {
      const services = servicesOf(t.app);
      // The stored object is gone before the job runs: only the bytes held from the upload can give its text.
      (services.jobs as unknown as JobQueue<{ 'extract-text': { entryId: number } }>).define(
        'extract-text',
        async ({ entryId }) => {
          const row = await services.db.kysely.selectFrom('file_entries').select('disk_prefix').where('id', '=', entryId).executeTakeFirstOrThrow();
          await services.drive.disk.deletePrefix(row.disk_prefix!);
          await services.search.extract([entryId]);
        },
        { attempts: 1 },
      );
      const { user } = await signedInUser(t.app);
      const token = (await services.auth.accessTokens.create(user.id, 'webdav', null, ['read', 'write'])).token;
      const put = await t.app.inject({
        method: 'PUT',
        url: '/dav/My%20drive/notes.txt',
        headers: basic(user.id, token),
        payload: 'quarterly heliotrope figures',
      });
      expect(put.statusCode).toBe(201);
      await services.jobs.idle();
      const entry = await services.db.kysely.selectFrom('file_entries').select('id').where('name', '=', 'notes.txt').executeTakeFirstOrThrow();
      const content = await services.db.kysely.selectFrom('file_contents').selectAll().where('entry_id', '=', entry.id).executeTakeFirst();
      expect(content?.status).toBe('ok');
      expect(content?.text).toBe('quarterly heliotrope figures');
      expect(services.search.held()).toBe(0);
    });
  });
});
