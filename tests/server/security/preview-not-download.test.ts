import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/lib/time.js';
import type { TestClient } from '../support/client.js';
import { createFolder, pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { withoutPermissions } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { addMember, createWorkspace } from '../workspaces/support.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * Issue 30 finding 3, in the drive: a caller who may view a file but not
 * download it (a site role without files.download; a workspace role that
 * only views) sees what has a preview, inline, and gets no other kind's
 * bytes by any route: the preview has none for it, and download, zip, copy
 * and WebDAV GET need the download action.
 */
const BLOB = Buffer.from([0, 1, 2, 3, 250, 251, 252, 253]);
const PAGE = '<html><script>alert(document.cookie)</script></html>';

interface Files {
  folder: string;
  blob: string;
  page: string;
  image: string;
  text: string;
}

describe('a preview is never a download in disguise (drive)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const davGet = async (userId: number, path: string) => {
    const { token } = await servicesOf(t.app).auth.accessTokens.create(userId, 'webdav', null, ['read']);
    const authorization = `Basic ${Buffer.from(`someone:${token}`).toString('base64')}`;
    return t.app.inject({ method: 'GET', url: path, headers: { authorization } });
  };

  /** What a caller who may view but not download gets from each byte-serving route. */
  async function expectViewOnly(client: TestClient, files: Files, query: string) {
    const at = (url: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;
    for (const hash of [files.blob, files.page]) {
      const preview = await client.get(at(`/api/v1/file-entries/${hash}/preview`));
      expect(preview.statusCode, preview.body).toBe(404);
      expect(preview.json().message).toBe('This file has no preview.');
      expect((await client.get(at(`/api/v1/file-entries/${hash}/preview`), { range: 'bytes=0-' })).statusCode).toBe(404);
    }
    const image = await client.get(at(`/api/v1/file-entries/${files.image}/preview`));
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toMatch(/^inline;/);
    const text = await client.get(at(`/api/v1/file-entries/${files.text}/preview`));
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-disposition']).toMatch(/^inline;/);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await client.get(at(`/api/v1/file-entries/${files.image}/thumbnail`))).statusCode).toBe(200);

    for (const hashes of [files.blob, files.image, `${files.blob},${files.text}`, files.folder]) {
      expect((await client.get(at(`/api/v1/file-entries/download?hashes=${hashes}`))).statusCode, hashes).toBe(403);
    }
    expect((await client.post(at('/api/v1/file-entries/duplicate'), { entryIds: [files.blob], destinationId: null })).statusCode).toBe(403);
  }

  it('a user whose site role lacks files.download: previews of what has one, nothing else of their own files', async () => {
    const { user, client } = await signedInUser(t.app);
    const folder = await createFolder(client, 'Mine');
    const files: Files = {
      folder,
      blob: (await uploadFile(t.app, user, { name: 'blob.bin', content: BLOB, parentId: folder })).hash,
      page: (await uploadFile(t.app, user, { name: 'page.html', content: PAGE, parentId: folder })).hash,
      image: (await uploadFile(t.app, user, { name: 'pic.png', content: await pngBytes(8, 8), parentId: folder })).hash,
      text: (await uploadFile(t.app, user, { name: 'notes.txt', content: 'notes', parentId: folder })).hash,
    };
    await withoutPermissions(servicesOf(t.app).db.kysely, user.id, ['files.download']);
    await expectViewOnly(client, files, 'workspaceId=0');
    expect((await davGet(user.id, '/dav/My%20drive/Mine/blob.bin')).statusCode).toBe(403);
  });

  it('a workspace member whose role only views: the same, in the workspace', async () => {
    const owner = await signedInUser(t.app);
    const member = await signedInUser(t.app);
    const workspaceId = await createWorkspace(owner.client, 'Look only');
    const db = servicesOf(t.app).db.kysely;
    const now = nowIso();
    const role = await db
      .insertInto('roles')
      .values({ name: `Workspace Looker ${workspaceId}`, type: 'workspace', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const view = await db.selectFrom('permissions').select('id').where('name', '=', 'files.view').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values({ role_id: role.id, permission_id: view.id, restrictions: '[]' }).execute();
    await addMember(t.app, t.dataDir, owner.client, workspaceId, member, role.id);

    const inWorkspace = `workspaceId=${workspaceId}`;
    const folderAnswer = await owner.client.post(`/api/v1/folders?${inWorkspace}`, { name: 'Plans', parentId: null });
    const folder = folderAnswer.json().folder.hash as string;
    const upload = async (name: string, content: Buffer) => {
      const { body, headers } = multipartUpload({ parentId: folder }, { name, content });
      const answer = await owner.client.request('POST', `/api/v1/file-entries?${inWorkspace}`, { body, headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().fileEntry.hash as string;
    };
    const files: Files = {
      folder,
      blob: await upload('blob.bin', BLOB),
      page: await upload('page.html', Buffer.from(PAGE)),
      image: await upload('pic.png', await pngBytes(8, 8)),
      text: await upload('notes.txt', Buffer.from('notes')),
    };
    await expectViewOnly(member.client, files, inWorkspace);
    expect((await davGet(member.user.id, '/dav/Look%20only/Plans/blob.bin')).statusCode).toBe(403);
    // The owner downloads what nobody previews.
    const download = await owner.client.get(`/api/v1/file-entries/download?hashes=${files.blob}&${inWorkspace}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(BLOB)).toBe(true);
    expect((await owner.client.get(`/api/v1/file-entries/${files.blob}/preview?${inWorkspace}`)).statusCode).toBe(404);
  });
});
