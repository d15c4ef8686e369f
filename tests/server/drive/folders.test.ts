import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('folders, renames, details and breadcrumbs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('should require authentication', async () => {
    const client = new TestClient(t.app);
    for (const [method, url] of [
      ['POST', '/api/v1/folders'],
      ['PUT', '/api/v1/file-entries/abc'],
      ['GET', '/api/v1/file-entries/abc'],
      ['GET', '/api/v1/folders/abc/path'],
      ['GET', '/api/v1/drive/folders'],
    ] as const) {
      const res = await client.request(method, url, { body: method === 'GET' ? undefined : { name: 'x' } });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('creates folders at the root and inside folders, with an unguessable URL-safe hash', async () => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/v1/folders', { name: 'Projects', parentId: '0' });
    expect(res.statusCode).toBe(200);
    const folder = res.json().folder;
    expect(folder).toMatchObject({ name: 'Projects', type: 'folder', parent_id: null, file_size: 0, is_starred: false });
    expect(folder.hash).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(folder.id).toBe(folder.hash);

    const child = await client.post('/api/v1/folders', { name: 'Q1', parentId: folder.hash });
    expect(child.json().folder.parent_id).toBe(folder.hash);
  });

  it('keeps names as typed, normalised to NFC', async () => {
    const { client } = await signedInUser(t.app);
    const decomposed = 'Cafe\u0301 ✓ 日本';
    const res = await client.post('/api/v1/folders', { name: decomposed });
    expect(res.json().folder.name).toBe('Café ✓ 日本'.normalize('NFC'));
    expect(res.json().folder.name).toBe(decomposed.normalize('NFC'));
  });

  it.each([
    ['a/b', 'The name may not contain a slash (/).'],
    ['bad\u0000name', 'The name may not contain control characters.'],
    ['tab\there', 'The name may not contain control characters.'],
    // Issue 10 finding 8: a right-to-left override makes 'invoice\u202Efdp.exe' display as 'invoiceexe.pdf'.
    ['invoice\u202Efdp.exe', 'The name may not contain invisible formatting characters.'],
    ['isolate\u2066d', 'The name may not contain invisible formatting characters.'],
    ['soft\u00ADhyphen', 'The name may not contain invisible formatting characters.'],
    ['..', 'The name may not be "." or "..".'],
    ['.', 'The name may not be "." or "..".'],
    ['   ', 'The name field is required.'],
    ['é'.repeat(128), 'The name may not be longer than 255 bytes.'],
  ])('refuses the name %j with a field error', async (name, message) => {
    const { client } = await signedInUser(t.app);
    const res = await client.post('/api/v1/folders', { name });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: [message] });

    const folder = await createFolder(client, 'Fine');
    const rename = await client.request('PUT', `/api/v1/file-entries/${folder}`, { body: { name } });
    expect(rename.statusCode).toBe(422);
    expect(rename.json().errors).toEqual({ name: [message] });
  });

  it('keeps the joiners emoji sequences and Persian words need', async () => {
    const { client } = await signedInUser(t.app);
    for (const name of ['👨\u200D👩\u200D👧 family', 'می\u200Cخواهم']) {
      const res = await client.post('/api/v1/folders', { name });
      expect(res.statusCode, name).toBe(200);
      expect(res.json().folder.name).toBe(name.normalize('NFC'));
    }
  });

  it('stores a name of exactly 255 bytes whole, and refuses one byte more', async () => {
    const { client } = await signedInUser(t.app);
    const name = `${'é'.repeat(127)}a`;
    expect(Buffer.byteLength(name)).toBe(255);
    const res = await client.post('/api/v1/folders', { name });
    expect(res.statusCode).toBe(200);
    expect(res.json().folder.name).toBe(name);
    expect(await listNames(client, 'folderId=0')).toEqual([name]);
    const over = await client.post('/api/v1/folders', { name: `${name}b` });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors).toEqual({ name: ['The name may not be longer than 255 bytes.'] });
  });

  it('refuses a folder name already used in the same folder with 409 and a field error', async () => {
    const { client } = await signedInUser(t.app);
    await createFolder(client, 'Invoices');
    const res = await client.post('/api/v1/folders', { name: 'Invoices' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'An item named "Invoices" already exists in this folder.',
      errors: { name: ['An item named "Invoices" already exists in this folder.'] },
    });
    // Elsewhere the name is free.
    const other = await createFolder(client, 'Archive');
    expect((await client.post('/api/v1/folders', { name: 'Invoices', parentId: other })).statusCode).toBe(200);
  });

  it('creates nothing inside a file, and 404s for a parent that is not there', async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 'notes.txt' });
    const inFile = await client.post('/api/v1/folders', { name: 'x', parentId: file.hash });
    expect(inFile.statusCode).toBe(422);
    expect(inFile.json().errors).toEqual({ parentId: ['The selected destination is not a folder.'] });
    expect((await client.post('/api/v1/folders', { name: 'x', parentId: 'nope' })).statusCode).toBe(404);
  });

  it('renames and describes entries through PUT and the method override', async () => {
    const { client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Old');
    const res = await client.request('POST', `/api/v1/file-entries/${folder}?_method=PUT`, {
      body: { name: 'New', description: 'Tax papers' },
      headers: { 'x-http-method-override': 'PUT' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().fileEntry).toMatchObject({ name: 'New', description: 'Tax papers' });

    await createFolder(client, 'Taken');
    const clash = await client.request('PUT', `/api/v1/file-entries/${folder}`, { body: { name: 'Taken' } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().errors.name[0]).toMatch(/already exists/);
    // Renaming to its own name is not a clash.
    expect((await client.request('PUT', `/api/v1/file-entries/${folder}`, { body: { name: 'New' } })).statusCode).toBe(200);
  });

  it('answers details with the folders above, breadcrumbs root→folder, and the folder tree', async () => {
    const { user, client } = await signedInUser(t.app);
    const a = await createFolder(client, 'A');
    const b = await createFolder(client, 'B', a);
    const c = await createFolder(client, 'C', b);
    const file = await uploadFile(t.app, user, { name: 'deep.txt', parentId: c });

    const details = await client.get(`/api/v1/file-entries/${file.hash}`);
    expect(details.statusCode).toBe(200);
    expect(details.json().fileEntry).toMatchObject({ name: 'deep.txt', parent_id: c, type: 'text' });
    expect(details.json().fileEntry.path.map((p: { name: string }) => p.name)).toEqual(['A', 'B', 'C']);

    const crumbs = await client.get(`/api/v1/folders/${c}/path`);
    expect(crumbs.json().path.map((p: { hash: string }) => p.hash)).toEqual([a, b, c]);
    expect((await client.get('/api/v1/folders/0/path')).json()).toEqual({ path: [] });

    const tree = await client.get('/api/v1/drive/folders');
    expect(tree.json().folders).toEqual([
      { id: a, hash: a, name: 'A', parent_id: null },
      { id: b, hash: b, name: 'B', parent_id: a },
      { id: c, hash: c, name: 'C', parent_id: b },
    ]);
  });

  it("answers 404 for another user's entries, for reads and writes alike", async () => {
    const owner = await signedInUser(t.app);
    const folder = await createFolder(owner.client, 'Private');
    const file = await uploadFile(t.app, owner.user, { name: 'secret.txt', parentId: folder });
    const { client } = await signedInUser(t.app);

    expect((await client.get(`/api/v1/file-entries/${file.hash}`)).statusCode).toBe(404);
    expect((await client.get(`/api/v1/folders/${folder}/path`)).statusCode).toBe(404);
    expect((await client.post('/api/v1/folders', { name: 'Mine', parentId: folder })).statusCode).toBe(404);
    const rename = await client.request('PUT', `/api/v1/file-entries/${file.hash}`, { body: { name: 'pwned' } });
    expect(rename.statusCode).toBe(404);
    expect(rename.json().message).toBe('This file or folder does not exist.');
    expect((await client.get('/api/v1/drive/folders')).json().folders).toEqual([]);
    // Nothing changed for the owner.
    expect((await owner.client.get(`/api/v1/file-entries/${file.hash}`)).json().fileEntry.name).toBe('secret.txt');
  });

  it('refuses users without the files.create permission with 403', async () => {
    const { user, client } = await signedInUser(t.app);
    const db = servicesOf(t.app).db.kysely;
    const users = await db.selectFrom('roles').select('id').where('name', '=', 'users').executeTakeFirstOrThrow();
    await db.deleteFrom('user_roles').where('user_id', '=', user.id).where('role_id', '=', users.id).execute();
    const res = await client.post('/api/v1/folders', { name: 'Nope' });
    expect(res.statusCode).toBe(403);
  });
});
