import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { upload, versionsOf } from './support.js';

const paragraph = (text: string) => [{ kind: 'paragraph', runs: [{ type: 'text', text, fontAttributes: {} }] }];
type Read = { data: { runs: { text?: string }[] }[]; version: string; shownVersion?: { id: number; created_at: string } };
const textOf = (read: Read) => read.data.map((section) => section.runs.map((run) => run.text ?? '').join('')).join('\n');

/**
 * An earlier version of a .docx opened in the editor (issue 34): file-entries/read with a versionId
 * answers that version's sections, says which version they are, and keeps `version` the current one
 * (nothing is saved from a read-only view). Who may read it is who may view the file.
 */
describe('reading an earlier version of a document', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let doc: string;
  let first: number;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
    doc = (await owner.client.post('/api/v1/documents', { parentId: null, name: 'Plan' })).json().fileEntry.id;
    for (const text of ['First draft', 'Second draft']) {
      const { version } = (await owner.client.post('/api/v1/file-entries/read', { id: doc })).json() as Read;
      expect((await owner.client.post('/api/v1/file-entries/save', { id: doc, version, content: paragraph(text) })).statusCode).toBe(200);
    }
    // Newest first: the first draft, then the empty document.
    first = (await versionsOf(owner.client, doc))[0]!.id;
  });
  afterAll(() => t.close());

  const read = (client: TestClient, body: Record<string, unknown>) => client.post('/api/v1/file-entries/read', body);

  it("answers the version's text, which version it is, and the current version to save against", async () => {
    const current = (await read(owner.client, { id: doc })).json() as Read;
    expect(textOf(current)).toBe('Second draft');
    expect(current.shownVersion).toBeUndefined();
    const res = await read(owner.client, { id: doc, versionId: first });
    expect(res.statusCode, res.body).toBe(200);
    const old = res.json() as Read;
    expect(textOf(old)).toBe('First draft');
    expect(old.shownVersion?.id).toBe(first);
    expect(old.version).toBe(current.version);
  });

  it('guest 401, stranger 404, unknown version 404, a version of another file 404, viewer 200', async () => {
    expect((await read(new TestClient(t.app), { id: doc, versionId: first })).statusCode).toBe(401);
    const stranger = await signedInUser(t.app);
    expect((await read(stranger.client, { id: doc, versionId: first })).statusCode).toBe(404);
    expect((await read(owner.client, { id: doc, versionId: 999_999 })).statusCode).toBe(404);
    const other = (await upload(owner.client, 'other.txt', 'one')).json().fileEntry.id as string;
    await upload(owner.client, 'other.txt', 'two', { onConflict: 'replace' });
    const otherVersion = (await versionsOf(owner.client, other))[0]!.id;
    expect((await read(owner.client, { id: doc, versionId: otherVersion })).statusCode).toBe(404);
    const viewer = await signedInUser(t.app);
    expect((await owner.client.post('/api/v1/file-entries/shares', { entryIds: [doc], emails: [viewer.user.email], permission: 'view' })).statusCode).toBe(200);
    const viewed = await read(viewer.client, { id: doc, versionId: first });
    expect(viewed.statusCode, viewed.body).toBe(200);
    expect(textOf(viewed.json() as Read)).toBe('First draft');
    expect((await read(owner.client, { id: doc, versionId: 'x' })).statusCode).toBe(422);
  });
});
