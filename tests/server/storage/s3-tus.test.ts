import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTusUpload, patchTus } from '../uploads/support.js';
import { servicesOf } from '../support/services-handle.js';

/** tus on an S3 disk: staged on this machine while it arrives, then moved into the bucket when finished. */
describe('resumable (tus) uploads on the S3 disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ disk: 's3' });
  });
  afterAll(() => t.close());

  it('finishes into an object in the bucket, byte for byte, and leaves nothing staged', async () => {
    const { client } = await signedInUser(t.app);
    const content = Buffer.from('resumable bytes '.repeat(4096));
    const location = (await createTusUpload(client, content.length, { name: 'notes.txt', parentId: '0' })).headers.location as string;
    expect((await patchTus(client, location, 0, content.subarray(0, 10_000))).statusCode).toBe(204);
    expect((await patchTus(client, location, 10_000, content.subarray(10_000))).statusCode).toBe(204);
    const uploadKey = location.split('/').pop()!;
    const finished = await client.request('POST', '/api/v1/tus/entries', { body: { uploadKey } });
    expect(finished.statusCode).toBe(200);
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('file_entries')
      .select(['disk_prefix', 'file_name'])
      .where('name', '=', 'notes.txt')
      .executeTakeFirstOrThrow();
    const chunks: Buffer[] = [];
    for await (const chunk of await servicesOf(t.app).drive.disk.get(`${row.disk_prefix}/${row.file_name}`)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    await expect(servicesOf(t.app).uploads.tusFiles.completed(uploadKey)).rejects.toThrow();
    const download = await client.get(`/api/v1/file-entries/download?hashes=${finished.json().fileEntry.hash}`);
    expect(download.rawPayload.equals(content)).toBe(true);
  });
});
