import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTusUpload, patchTus } from '../uploads/support.js';
import { basic, dav, davToken, upload, versionsOf } from './support.js';

const MiB = 1024 * 1024;

/**
 * One reservation rule for a replace (issue 34): an upload answered "Replace"
 * is charged what it adds to the file it replaces, as a WebDAV PUT over a file
 * is (QuotaService.reserve). Under 3 MiB, a 2 MiB file replaced by 2 MiB of
 * new content fits on every path; the old bytes become a version that gives
 * way to the new content at once. A new 2 MiB file beside it does not fit.
 */
describe('a replace is charged the difference on every path', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const used = async (client: TestClient) => (await client.get('/api/v1/user/space-usage')).json().used as number;
  const tightUser = () => signedInUser(t.app, { permissions: [{ name: 'files.create', restrictions: [{ name: 'max_space', value: 3 * MiB }] }] });
  const rootFile = async (client: TestClient, name: string) =>
    ((await client.get('/api/v1/drive/file-entries')).json().pagination.data as { id: string; name: string; file_size: number }[]).find(
      (e) => e.name === name,
    )!;

  it('REST plain upload: "Replace" of a 2 MiB file with 2 MiB fits under 3 MiB; "Keep both" does not', async () => {
    const { client } = await tightUser();
    const first = await upload(client, 'big.bin', Buffer.alloc(2 * MiB, 1));
    expect(first.statusCode, first.body).toBe(200);
    const replaced = await upload(client, 'big.bin', Buffer.alloc(2 * MiB, 2), { onConflict: 'replace' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().fileEntry.id).toBe(first.json().fileEntry.id);
    const downloaded = await client.get(`/api/v1/file-entries/download?hashes=${first.json().fileEntry.id}`);
    expect(downloaded.rawPayload.equals(Buffer.alloc(2 * MiB, 2))).toBe(true);
    // The old bytes were a version for a moment: with no room for both, the version went, never the file.
    expect(await used(client)).toBe(2 * MiB);
    expect(await versionsOf(client, first.json().fileEntry.id)).toEqual([]);
    // A second file of that size is new content, charged whole: refused, and nothing changed.
    const beside = await upload(client, 'big.bin', Buffer.alloc(2 * MiB, 3), { onConflict: 'rename' });
    expect(beside.statusCode).toBe(413);
    expect(await used(client)).toBe(2 * MiB);
  });

  it('REST tus upload: the same rule when the upload is created', async () => {
    const { client } = await tightUser();
    expect((await upload(client, 'tus.bin', Buffer.alloc(2 * MiB, 1))).statusCode).toBe(200);
    expect((await createTusUpload(client, 2 * MiB, { name: 'tus.bin', onConflict: 'rename' })).statusCode).toBe(413);
    const created = await createTusUpload(client, 2 * MiB, { name: 'tus.bin', onConflict: 'replace' });
    expect(created.statusCode, created.body).toBe(201);
    const location = created.headers.location as string;
    expect((await patchTus(client, location, 0, Buffer.alloc(2 * MiB, 4))).statusCode).toBe(204);
    const done = await client.post('/api/v1/tus/entries', { uploadKey: location.split('/').pop()! });
    expect(done.statusCode, done.body).toBe(200);
    const file = await rootFile(client, 'tus.bin');
    expect(done.json().fileEntry.id).toBe(file.id);
    expect(file.file_size).toBe(2 * MiB);
    expect((await client.get(`/api/v1/file-entries/download?hashes=${file.id}`)).rawPayload.equals(Buffer.alloc(2 * MiB, 4))).toBe(true);
    expect(await used(client)).toBe(2 * MiB);
  });

  it('WebDAV PUT over the file: the same answer', async () => {
    const { user, client } = await tightUser();
    const auth = basic(await davToken(t.app, user.id));
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/dav.bin', auth, Buffer.alloc(2 * MiB, 1))).statusCode).toBe(201);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/dav.bin', auth, Buffer.alloc(2 * MiB, 2))).statusCode).toBe(204);
    expect((await dav(t.app, 'PUT', '/dav/My%20drive/other.bin', auth, Buffer.alloc(2 * MiB, 3))).statusCode).toBe(507);
    expect(await used(client)).toBe(2 * MiB);
  });
});
