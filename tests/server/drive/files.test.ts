import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type Entry } from 'yauzl';
import { TestClient } from '../support/client.js';
import { createFolder, pngBytes, signedInUser, uploadFile, actorFor } from '../support/drive-factories.js';
import { createTestApp, DISKS, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** Names and contents of a zip, read with a real unzipper. */
function readZip(bytes: Buffer): Promise<Map<string, string | null>> {
  return new Promise((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const result = new Map<string, string | null>();
      zip.on('entry', (entry: Entry) => {
        if (entry.fileName.endsWith('/')) {
          result.set(entry.fileName, null);
          return zip.readEntry();
        }
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            result.set(entry.fileName, Buffer.concat(chunks).toString());
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(result));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe.each(DISKS)('file bytes: create, download, preview, thumbnails, space usage (%s disk)', (disk) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ disk });
  });
  afterAll(() => t.close());

  it('should require authentication', async () => {
    const client = new TestClient(t.app);
    for (const url of [
      '/api/v1/file-entries/download?hashes=a',
      '/api/v1/file-entries/a/preview',
      '/api/v1/file-entries/a/thumbnail',
      '/api/v1/user/space-usage',
    ]) {
      expect((await client.get(url)).statusCode, url).toBe(401);
    }
  });

  describe('createFileFromStream', () => {
    it('stores the bytes under a generated key with their sha256, and sniffs the type from the content', async () => {
      const { user } = await signedInUser(t.app);
      const png = await pngBytes(32, 32);
      const entry = await uploadFile(t.app, user, { name: 'holiday.jpg', content: png });
      expect(entry).toMatchObject({ type: 'image', mime: 'image/png', extension: 'jpg', file_size: png.length });
      expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(`${entry.disk_prefix}/${entry.file_name}`).not.toContain('holiday');
    });

    it('never believes the name alone: a .png that is text is text, a .pdf of noise is a plain file', async () => {
      const { user } = await signedInUser(t.app);
      const svgInPng = await uploadFile(t.app, user, { name: 'evil.png', content: '<svg onload="alert(1)"></svg>' });
      expect(svgInPng).toMatchObject({ mime: 'text/plain', type: 'text' });
      const noise = await uploadFile(t.app, user, { name: 'fake.pdf', content: Buffer.from([0, 159, 146, 150, 0, 1]) });
      expect(noise).toMatchObject({ mime: 'application/octet-stream', type: 'file' });
      const csv = await uploadFile(t.app, user, { name: 'table.csv', content: 'a,b\n1,2\n' });
      expect(csv).toMatchObject({ mime: 'text/csv', type: 'spreadsheet' });
      const svg = await uploadFile(t.app, user, { name: 'logo.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' });
      expect(svg).toMatchObject({ mime: 'image/svg+xml', type: 'image' });
    });

    it('refuses bad names and short streams, leaving nothing behind', async () => {
      const { user } = await signedInUser(t.app);
      await expect(uploadFile(t.app, user, { name: '../etc/passwd' })).rejects.toMatchObject({
        statusCode: 422,
        errors: { name: ['The name may not contain a slash (/).'] },
      });
      const objectsBefore: string[] = [];
      for await (const object of servicesOf(t.app).drive.disk.list()) objectsBefore.push(object.key);
      // Small declared bodies are read whole (IN_MEMORY_BYTES), larger ones stream: either way a body that ends
      // early or runs past what it declared is refused.
      for (const [content, size] of [
        ['abc', 10],
        ['a longer body than declared', 10],
        [Buffer.alloc(70 * 1024, 1), 80 * 1024],
        [Buffer.alloc(90 * 1024, 1), 80 * 1024],
      ] as const) {
        await expect(uploadFile(t.app, user, { name: 'short.txt', content, size }), `${content.length} of ${size}`).rejects.toMatchObject({ statusCode: 422 });
      }
      const rows = await servicesOf(t.app).db.kysely.selectFrom('file_entries').select('id').where('owner_id', '=', user.id).execute();
      expect(rows).toEqual([]);
      const objectsAfter: string[] = [];
      for await (const object of servicesOf(t.app).drive.disk.list()) objectsAfter.push(object.key);
      expect(objectsAfter.sort()).toEqual(objectsBefore.sort());
    });

    it("gives an upload a ' (1)' suffix when the name is taken", async () => {
      const { user } = await signedInUser(t.app);
      await uploadFile(t.app, user, { name: 'same.txt' });
      expect((await uploadFile(t.app, user, { name: 'same.txt' })).name).toBe('same (1).txt');
    });
  });

  describe('GET /file-entries/download', () => {
    it('streams one file with length, validators and a safe attachment name', async () => {
      const { user, client } = await signedInUser(t.app);
      const file = await uploadFile(t.app, user, { name: 'résumé "final".txt', content: '0123456789' });
      const res = await client.get(`/api/v1/file-entries/download?hashes=${file.hash}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('0123456789');
      expect(res.headers['content-length']).toBe('10');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers.etag).toBe(`"${file.sha256}"`);
      expect(res.headers['last-modified']).toBe(new Date(file.updated_at).toUTCString());
      expect(res.headers['content-disposition']).toBe(`attachment; filename="r_sum_ _final_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.txt`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-encoding']).toBeUndefined();
    });

    it('answers byte ranges with 206 and Content-Range, and 416 outside the file', async () => {
      const { user, client } = await signedInUser(t.app);
      const file = await uploadFile(t.app, user, { name: 'digits.txt', content: '0123456789' });
      const url = `/api/v1/file-entries/download?hashes=${file.hash}`;
      const part = await client.get(url, { range: 'bytes=2-5' });
      expect(part.statusCode).toBe(206);
      expect(part.body).toBe('2345');
      expect(part.headers['content-range']).toBe('bytes 2-5/10');
      expect(part.headers['content-length']).toBe('4');
      expect((await client.get(url, { range: 'bytes=7-' })).body).toBe('789');
      expect((await client.get(url, { range: 'bytes=-3' })).body).toBe('789');
      const outside = await client.get(url, { range: 'bytes=50-60' });
      expect(outside.statusCode).toBe(416);
      expect(outside.headers['content-range']).toBe('bytes */10');
      // A stale If-Range gets the whole file.
      expect((await client.get(url, { range: 'bytes=2-5', 'if-range': '"stale"' })).statusCode).toBe(200);
    });

    it('answers 304 to a matching If-None-Match or a fresh If-Modified-Since', async () => {
      const { user, client } = await signedInUser(t.app);
      const file = await uploadFile(t.app, user, { name: 'cached.txt', content: 'same' });
      const url = `/api/v1/file-entries/download?hashes=${file.hash}`;
      const first = await client.get(url);
      const etag = first.headers.etag as string;
      const notModified = await client.get(url, { 'if-none-match': etag });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
      expect((await client.get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
      expect((await client.get(url, { 'if-modified-since': first.headers['last-modified'] as string })).statusCode).toBe(304);
    });

    it('zips several entries and folders with their contents, normalised names and folders kept', async () => {
      const { user, client } = await signedInUser(t.app);
      const folder = await createFolder(client, 'Photos');
      const sub = await createFolder(client, 'Sub', folder);
      await createFolder(client, 'Empty', folder);
      await uploadFile(t.app, user, { name: 'a.txt', content: 'A', parentId: folder });
      await uploadFile(t.app, user, { name: 'back\\slash.txt', content: 'B', parentId: sub });
      const trashed = await uploadFile(t.app, user, { name: 'trashed.txt', content: 'T', parentId: folder });
      await client.post('/api/v1/file-entries/delete', { entryIds: [trashed.hash] });
      const loose = await uploadFile(t.app, user, { name: 'Photos', content: 'a file with the folder\u2019s name' });

      const res = await client.get(`/api/v1/file-entries/download?hashes=${folder},${loose.hash}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toContain('attachment; filename="download.zip"');
      const zip = await readZip(res.rawPayload);
      expect([...zip.keys()].sort()).toEqual(['Photos (1)', 'Photos/', 'Photos/Empty/', 'Photos/Sub/', 'Photos/Sub/back_slash.txt', 'Photos/a.txt'].sort());
      expect(zip.get('Photos/a.txt')).toBe('A');
      expect(zip.get('Photos/Sub/back_slash.txt')).toBe('B');

      const single = await client.get(`/api/v1/file-entries/download?hashes=${sub}`);
      expect(single.headers['content-disposition']).toContain('filename="Sub.zip"');
      expect([...(await readZip(single.rawPayload)).keys()]).toEqual(['Sub/', 'Sub/back_slash.txt']);
    });

    it("404s for another user's files, and refuses empty lists", async () => {
      const owner = await signedInUser(t.app);
      const file = await uploadFile(t.app, owner.user, { name: 'x.txt' });
      const { client } = await signedInUser(t.app);
      expect((await client.get(`/api/v1/file-entries/download?hashes=${file.hash}`)).statusCode).toBe(404);
      expect((await client.get(`/api/v1/file-entries/${file.hash}/preview`)).statusCode).toBe(404);
      expect((await client.get(`/api/v1/file-entries/${file.hash}/thumbnail`)).statusCode).toBe(404);
      expect((await client.get('/api/v1/file-entries/download?hashes=,')).statusCode).toBe(422);
    });
  });

  describe('previews', () => {
    it('shows images, PDFs and text inline, text as plain text in a sandbox', async () => {
      const { user, client } = await signedInUser(t.app);
      const image = await uploadFile(t.app, user, { name: 'pic.png', content: await pngBytes(8, 8) });
      const shown = await client.get(`/api/v1/file-entries/${image.hash}/preview`);
      expect(shown.headers['content-type']).toBe('image/png');
      expect(shown.headers['content-disposition']).toMatch(/^inline;/);
      expect(shown.headers['x-content-type-options']).toBe('nosniff');
      expect((await client.get(`/api/v1/file-entries/${image.hash}`)).json().fileEntry.url).toBe(`/api/v1/file-entries/${image.hash}/preview`);

      const text = await uploadFile(t.app, user, { name: 'readme.md', content: '# Hello' });
      const textPreview = await client.get(`/api/v1/file-entries/${text.hash}/preview`, { range: 'bytes=0-2' });
      expect(textPreview.statusCode).toBe(206);
      expect(textPreview.body).toBe('# H');
      expect(textPreview.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(textPreview.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    });

    it('has none for markup (HTML, SVG) or kinds without one, even for the owner: 404, never an attachment', async () => {
      const { user, client } = await signedInUser(t.app);
      for (const [name, content] of [
        ['page.html', '<html><script>alert(document.cookie)</script></html>'],
        ['logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
        ['blob.bin', Buffer.from([0, 1, 2, 250])],
        ['backup.bak', Buffer.from([0, 1, 2, 250])],
      ] as const) {
        const file = await uploadFile(t.app, user, { name, content });
        const res = await client.get(`/api/v1/file-entries/${file.hash}/preview`);
        expect(res.statusCode, name).toBe(404);
        expect(res.json().message).toBe('This file has no preview.');
        expect((await client.get(`/api/v1/file-entries/${file.hash}`)).json().fileEntry.url, name).toBeNull();
        // What has no preview is downloaded: an attachment, sandboxed.
        const download = await client.get(`/api/v1/file-entries/download?hashes=${file.hash}`);
        expect(download.headers['content-disposition']).toMatch(/^attachment;/);
        expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
        expect(download.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  });

  describe('thumbnails', () => {
    it('are made as WebP in the background after an image is created, and on demand when missing', async () => {
      const { user, client } = await signedInUser(t.app);
      const image = await uploadFile(t.app, user, { name: 'big.png', content: await pngBytes(1200, 800) });
      await servicesOf(t.app).jobs.idle();
      const row = await servicesOf(t.app)
        .db.kysely.selectFrom('file_entries')
        .select(['thumbnail', 'disk_prefix'])
        .where('id', '=', image.id)
        .executeTakeFirstOrThrow();
      expect(row.thumbnail).toBe(1);
      expect(await servicesOf(t.app).drive.disk.stat(`${row.disk_prefix}/thumbnail.webp`)).not.toBeNull();

      const res = await client.get(`/api/v1/file-entries/${image.hash}/thumbnail`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 213 });

      await servicesOf(t.app).drive.disk.delete(`${row.disk_prefix}/thumbnail.webp`);
      expect((await client.get(`/api/v1/file-entries/${image.hash}/thumbnail`)).statusCode).toBe(200);

      const listed = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0];
      expect(listed.thumbnail_url).toBe(`/api/v1/file-entries/${image.hash}/thumbnail`);
      const text = await uploadFile(t.app, user, { name: 'no.txt' });
      expect((await client.get(`/api/v1/file-entries/${text.hash}/thumbnail`)).statusCode).toBe(404);
    });
  });

  describe('GET /user/space-usage', () => {
    it('sums the bytes of the files (trash included) against the site default', async () => {
      const { user, client } = await signedInUser(t.app);
      const a = await uploadFile(t.app, user, { name: 'a.txt', content: 'x'.repeat(100) });
      await uploadFile(t.app, user, { name: 'b.txt', content: 'x'.repeat(50) });
      await client.post('/api/v1/file-entries/delete', { entryIds: [a.hash] });
      const res = await client.get('/api/v1/user/space-usage');
      expect(res.json()).toEqual({ used: 150, available: 10 * 1024 ** 3 });
      await client.post('/api/v1/file-entries/delete', { entryIds: [], emptyTrash: true });
      expect((await client.get('/api/v1/user/space-usage')).json().used).toBe(50);
    });

    it("takes the user's files.create max_space first, and null setting as unlimited", async () => {
      const limited = await signedInUser(t.app, { permissions: [{ name: 'files.create', restrictions: [{ name: 'max_space', value: 5000 }] }] });
      expect((await limited.client.get('/api/v1/user/space-usage')).json()).toEqual({ used: 0, available: 5000 });
      await servicesOf(t.app).settings.set({ 'uploads.available_space': null });
      try {
        const { client } = await signedInUser(t.app);
        expect((await client.get('/api/v1/user/space-usage')).json()).toEqual({ used: 0, available: null });
      } finally {
        await servicesOf(t.app).settings.set({ 'uploads.available_space': 10 * 1024 ** 3 });
      }
    });
  });

  it('stores a multi-megabyte stream arriving in chunks', async () => {
    const { user } = await signedInUser(t.app);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const stream = new Readable({
      read() {
        sent += 1;
        this.push(sent <= 8 ? chunk : null);
      },
    });
    const actor = await actorFor(t.app, user);
    const entry = await servicesOf(t.app).drive.files.createFileFromStream(actor, await servicesOf(t.app).drive.scope(actor, null), {
      name: 'big.bin',
      stream,
    });
    expect(entry.file_size).toBe(8 * 1024 * 1024);
  });
});
