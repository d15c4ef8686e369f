import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const paragraph = (text: string) => [{ kind: 'paragraph', runs: [{ type: 'text', text, fontAttributes: {} }] }];

/**
 * Every document route against the callers the policy tells apart: a guest
 * (401), a stranger (404), a recipient of a view share (403 where the call
 * changes the document), an edit-share recipient and the owner (200).
 */
describe('access to the document routes', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let viewer: Awaited<ReturnType<typeof signedInUser>>;
  let editor: Awaited<ReturnType<typeof signedInUser>>;
  let stranger: Awaited<ReturnType<typeof signedInUser>>;
  let folder: string;
  let doc: string;
  let image: string;

  beforeAll(async () => {
    t = await createTestApp();
    [owner, viewer, editor, stranger] = [await signedInUser(t.app), await signedInUser(t.app), await signedInUser(t.app), await signedInUser(t.app)];
    folder = await createFolder(owner.client, 'Shared docs');
    doc = (await owner.client.post('/api/v1/documents', { parentId: folder })).json().fileEntry.hash;
    const version = (await owner.client.post('/api/v1/file-entries/read', { id: doc })).json().version;
    const uploaded = await owner.client.post('/api/v1/file-entries/save', { id: doc, version, content: paragraph('Hello') });
    expect(uploaded.statusCode).toBe(200);
    for (const [person, permission] of [
      [viewer, 'view'],
      [editor, 'edit'],
    ] as const) {
      const shared = await owner.client.post('/api/v1/file-entries/shares', { entryIds: [folder], emails: [person.user.email], permission });
      expect(shared.statusCode, shared.body).toBe(200);
    }
    image = `/api/v1/file-entries/${doc}/document-images/${'0'.repeat(32)}.png`;
  }, 60_000);
  afterAll(() => t.close());

  const versionOf = async (client: TestClient) => (await client.post('/api/v1/file-entries/read', { id: doc })).json().version as string;

  it('file-entries/read: guest 401, stranger 404, viewer and owner 200', async () => {
    expect((await new TestClient(t.app).post('/api/v1/file-entries/read', { id: doc })).statusCode).toBe(401);
    expect((await stranger.client.post('/api/v1/file-entries/read', { id: doc })).statusCode).toBe(404);
    expect((await viewer.client.post('/api/v1/file-entries/read', { id: doc })).statusCode).toBe(200);
    expect((await owner.client.post('/api/v1/file-entries/read', { id: doc })).statusCode).toBe(200);
  });

  it('file-entries/save: guest 401, stranger 404, view share 403, edit share and owner 200', async () => {
    const save = async (client: TestClient, text: string) =>
      (await client.post('/api/v1/file-entries/save', { id: doc, version: await versionOf(owner.client), content: paragraph(text) })).statusCode;
    expect(await save(new TestClient(t.app), 'guest')).toBe(401);
    expect(await save(stranger.client, 'stranger')).toBe(404);
    expect(await save(viewer.client, 'viewer')).toBe(403);
    expect(await save(editor.client, 'editor')).toBe(200);
    expect(await save(owner.client, 'owner')).toBe(200);
  });

  it('file-entries/save-copy: guest 401, stranger 404; a viewer’s copy lands in their own drive', async () => {
    const copy = (client: TestClient) => client.post('/api/v1/file-entries/save-copy', { id: doc, name: 'Copy.docx', content: paragraph('copy') });
    expect((await copy(new TestClient(t.app))).statusCode).toBe(401);
    expect((await copy(stranger.client)).statusCode).toBe(404);
    const mine = await copy(viewer.client);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().fileEntry).toMatchObject({ owner_id: viewer.user.id, parent_id: null });
    const owners = await copy(owner.client);
    expect(owners.json().fileEntry).toMatchObject({ owner_id: owner.user.id, parent_id: folder });
  });

  it('documents (new document): guest 401, stranger 404 in a foreign folder, view share 403, owner 200', async () => {
    const create = (client: TestClient) => client.post('/api/v1/documents', { parentId: folder, name: 'Plan' });
    expect((await create(new TestClient(t.app))).statusCode).toBe(401);
    expect((await create(stranger.client)).statusCode).toBe(404);
    expect((await create(viewer.client)).statusCode).toBe(403);
    const made = await create(owner.client);
    expect(made.statusCode).toBe(200);
    expect(made.json().fileEntry.name).toBe('Plan.docx');
  });

  it('document images: guest 401, stranger 404, owner reaches the route (an unknown image is a field error)', async () => {
    expect((await new TestClient(t.app).get(image)).statusCode).toBe(401);
    expect((await stranger.client.get(image)).statusCode).toBe(404);
    expect((await owner.client.get(image)).statusCode).toBe(422);
  });
});
