import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createFolder, listNames, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';

type Person = Awaited<ReturnType<typeof signedInUser>>;

describe('sharing with people', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const share = (from: Person, entryIds: string[], emails: string[], permission: 'view' | 'edit') =>
    from.client.post('/api/v1/file-entries/shares', { entryIds, emails, permission });

  async function sharedFolder(permission: 'view' | 'edit') {
    const owner = await signedInUser(t.app);
    const recipient = await signedInUser(t.app);
    const folder = await createFolder(owner.client, `Plans ${permission}`);
    const file = (await uploadFile(t.app, owner.user, { name: 'budget.txt', content: 'numbers', parentId: folder })).hash;
    const answer = await share(owner, [folder], [recipient.user.email], permission);
    expect(answer.statusCode, answer.body).toBe(200);
    return { owner, recipient, folder, file, shares: answer.json().shares as { id: number; permission: string; user: { email: string } }[] };
  }

  it('shows a shared folder in Shared with me, opens it, and lets a viewer only view and download', async () => {
    const { owner, recipient, folder, file, shares } = await sharedFolder('view');
    expect(shares).toEqual([expect.objectContaining({ permission: 'view', user: expect.objectContaining({ email: recipient.user.email }) })]);
    expect(await listNames(recipient.client, 'sharedOnly=true')).toEqual(['Plans view']);
    const [sharedEntry] = (await recipient.client.get('/api/v1/drive/file-entries?sharedOnly=true')).json().pagination.data;
    expect(sharedEntry).toMatchObject({ owner_id: owner.user.id, owner_name: expect.stringMatching(/^Test User \d+$/) });
    expect(await listNames(recipient.client, '')).toEqual([]);
    expect(await listNames(recipient.client, `folderId=${folder}`)).toEqual(['budget.txt']);
    const listed = (await recipient.client.get(`/api/v1/drive/file-entries?folderId=${folder}`)).json().pagination.data[0];
    expect(listed.permissions).toEqual(['files.view', 'files.download']);
    expect((await recipient.client.get(`/api/v1/file-entries/download?hashes=${file}`)).statusCode).toBe(200);
    expect((await recipient.client.request('PUT', `/api/v1/file-entries/${file}`, { body: { name: 'mine.txt' } })).statusCode).toBe(403);
    expect((await recipient.client.post('/api/v1/folders', { name: 'Sub', parentId: folder })).statusCode).toBe(403);
    // A viewer cannot pass the folder on.
    const stranger = await signedInUser(t.app);
    expect((await share(recipient, [folder], [stranger.user.email], 'view')).statusCode).toBe(403);
    expect((await stranger.client.get(`/api/v1/drive/file-entries?folderId=${folder}`)).statusCode).toBe(404);
    expect(await listNames(owner.client, '')).toEqual(['Plans view']);
  });

  it('lets an editor upload into the folder, charged to its owner, rename and trash there, but not take entries out', async () => {
    const { owner, recipient, folder, file } = await sharedFolder('edit');
    const { body, headers } = multipartUpload({ parentId: folder }, { name: 'notes.txt', content: Buffer.from('x'.repeat(500)) });
    const uploaded = await recipient.client.request('POST', '/api/v1/file-entries', { body, headers });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json().fileEntry.owner_id).toBe(owner.user.id);
    expect((await recipient.client.get('/api/v1/user/space-usage')).json().used).toBe(0);
    expect((await owner.client.get('/api/v1/user/space-usage')).json().used).toBe(500 + 'numbers'.length);

    expect((await recipient.client.request('PUT', `/api/v1/file-entries/${file}`, { body: { name: 'renamed.txt' } })).statusCode).toBe(200);
    const mine = await createFolder(recipient.client, 'Mine');
    const taken = await recipient.client.post('/api/v1/file-entries/move', { entryIds: [file], destinationId: mine });
    expect(taken.statusCode).toBe(422);
    expect((await recipient.client.post('/api/v1/file-entries/delete', { entryIds: [file] })).statusCode).toBe(200);
    expect(await listNames(owner.client, `folderId=${folder}`)).toEqual(['notes.txt']);
  });

  it('tells the recipient with a file-entry-shared notification', async () => {
    const { recipient } = await sharedFolder('view');
    const [notification] = (await recipient.client.get('/api/v1/notifications')).json().pagination.data;
    expect(notification).toMatchObject({ type: 'file-entry-shared', data: { mainAction: { action: '/drive/shares' } } });
    expect(notification.data.lines[0].content).toMatch(/^Test User \d+ shared Plans view with you$/);
  });

  it('changes and removes access everywhere at once; the recipient may drop a share too', async () => {
    const { owner, recipient, folder, shares } = await sharedFolder('view');
    const marker = async () =>
      ((await owner.client.get('/api/v1/drive/file-entries')).json().pagination.data as { hash: string; is_shared: boolean }[]).find((e) => e.hash === folder)!
        .is_shared;
    expect(await marker()).toBe(true);
    const changed = await owner.client.request('PUT', `/api/v1/file-entries/shares/${shares[0]!.id}`, { body: { permission: 'edit' } });
    expect(changed.json().shares[0].permission).toBe('edit');
    expect((await recipient.client.post('/api/v1/folders', { name: 'Now allowed', parentId: folder })).statusCode).toBe(200);
    expect((await recipient.client.request('PUT', `/api/v1/file-entries/shares/${shares[0]!.id}`, { body: { permission: 'edit' } })).statusCode).toBe(403);

    expect((await owner.client.request('DELETE', `/api/v1/file-entries/shares/${shares[0]!.id}`)).json()).toEqual({ message: 'Access removed' });
    expect((await recipient.client.get(`/api/v1/drive/file-entries?folderId=${folder}`)).statusCode).toBe(404);
    expect(await listNames(recipient.client, 'sharedOnly=true')).toEqual([]);
    expect(await marker()).toBe(false);

    const again = (await share(owner, [folder], [recipient.user.email], 'view')).json().shares[0].id as number;
    expect((await recipient.client.request('DELETE', `/api/v1/file-entries/shares/${again}`)).statusCode).toBe(200);
    expect(await listNames(recipient.client, 'sharedOnly=true')).toEqual([]);
  });

  it('refuses an address with no account, oneself, an entry one cannot share, and strangers', async () => {
    const owner = await signedInUser(t.app);
    const folder = await createFolder(owner.client, 'Private');
    const nobody = await share(owner, [folder], ['nobody@example.com'], 'view');
    expect(nobody.statusCode).toBe(422);
    expect(nobody.json().errors['emails.0']).toEqual(['No account uses nobody@example.com.']);
    expect((await share(owner, [folder], [owner.user.email], 'view')).json().errors['emails.0']).toEqual(['You cannot share with yourself.']);
    const stranger = await signedInUser(t.app);
    expect((await share(stranger, [folder], [owner.user.email], 'view')).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/v1/file-entries/${folder}/shares`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/api/v1/file-entries/${folder}/shares`)).statusCode).toBe(401);
    expect((await stranger.client.request('DELETE', '/api/v1/file-entries/shares/999999')).statusCode).toBe(404);
  });
});
