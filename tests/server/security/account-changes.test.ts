import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/lib/time.js';
import { TestClient } from '../support/client.js';
import { createFolder, pngBytes, uploadFile } from '../support/drive-factories.js';
import { createUser } from '../support/factories.js';
import { mailsTo } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { multipartUpload } from '../uploads/support.js';
import { servicesOf } from '../support/services-handle.js';

/** Issue 10 finding 1: a stolen token or an unattended browser must not own the account. */
describe('changes to the account itself need a fresh proof', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signedIn = async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    return { user, client };
  };
  const bearer = async (userId: number, scopes: ('read' | 'write' | 'account')[]) => {
    const client = new TestClient(t.app);
    client.xsrf = false;
    client.bearer = (await servicesOf(t.app).auth.accessTokens.create(userId, 'cli', null, scopes)).token;
    return client;
  };
  const emailOf = async (id: number) => (await servicesOf(t.app).users.findById(id))?.email;

  it('an email change needs the current password, tells the old address, and ends the other sessions', async () => {
    const { user, client } = await signedIn();
    const other = new TestClient(t.app);
    await other.login(user.email, user.password);
    const newEmail = `moved-${user.id}@example.com`;

    const missing = await client.request('PUT', '/api/v1/users/me', { body: { email: newEmail } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ current_password: ['Enter your current password to confirm this change.'] });
    const wrong = await client.request('PUT', '/api/v1/users/me', { body: { email: newEmail, current_password: 'not it' } });
    expect(wrong.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });
    expect(await emailOf(user.id)).toBe(user.email);

    const ok = await client.request('PUT', '/api/v1/users/me', { body: { email: newEmail, current_password: user.password } });
    expect(ok.statusCode).toBe(200);
    expect(await emailOf(user.id)).toBe(newEmail);
    await servicesOf(t.app).jobs.idle();
    const notice = (await mailsTo(t.dataDir, user.email)).at(-1);
    expect(notice?.text).toContain(`was changed to ${newEmail}`);
    expect((await other.get('/api/v1/users/me')).statusCode).toBe(401);
    expect((await client.get('/api/v1/users/me')).statusCode).toBe(200);
    // Other fields need no password.
    expect((await client.request('PUT', '/api/v1/users/me', { body: { first_name: 'Ada' } })).statusCode).toBe(200);
  });

  it('deleting one’s own account needs the current password, and then nothing of it is left', async () => {
    const { user, client } = await signedIn();
    const otherBrowser = new TestClient(t.app);
    await otherBrowser.login(user.email, user.password);
    const token = await bearer(user.id, ['read']);
    const folder = await createFolder(client, 'Mine');
    const file = await uploadFile(t.app, user, { name: 'mine.txt', content: 'my bytes', parentId: folder });
    const fileKey = `${file.disk_prefix}/${file.file_name}`;
    const avatarUpload = multipartUpload({}, { name: 'me.png', content: await pngBytes(20, 20), type: 'image/png' });
    const avatar = (await client.request('POST', '/api/v1/users/me/avatar', avatarUpload)).json().avatar as string;
    const db = servicesOf(t.app).db.kysely;
    const rowsOf = async () => ({
      users: (await db.selectFrom('users').select('id').where('id', '=', user.id).execute()).length,
      sessions: (await db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).length,
      tokens: (await db.selectFrom('personal_access_tokens').select('id').where('user_id', '=', user.id).execute()).length,
      entries: (await db.selectFrom('file_entries').select('id').where('owner_id', '=', user.id).execute()).length,
    });
    // What the deletion must remove is really there first, so the checks after it are not vacuous.
    expect(await rowsOf()).toEqual({ users: 1, sessions: 2, tokens: 1, entries: 2 });
    expect(await servicesOf(t.app).drive.disk.stat(fileKey)).not.toBeNull();
    expect((await new TestClient(t.app).get(avatar)).statusCode).toBe(200);

    expect((await client.request('DELETE', '/api/v1/users/me?deleteCurrentUser=true')).statusCode).toBe(422);
    expect((await client.request('DELETE', '/api/v1/users/me?deleteCurrentUser=true', { body: { current_password: 'nope' } })).statusCode).toBe(422);
    expect((await rowsOf()).users).toBe(1);
    const ok = await client.request('DELETE', '/api/v1/users/me?deleteCurrentUser=true', { body: { current_password: user.password } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Account deleted' });

    // Spec: "toast 'Account deleted', then logout"; and the account cannot come back in by any door.
    const signIn = await new TestClient(t.app).post('/auth/login', { email: user.email, password: user.password });
    expect(signIn.statusCode).toBe(422);
    expect(signIn.json().errors).toEqual({ email: ['These credentials do not match our records.'] });
    expect((await client.get('/api/v1/users/me')).statusCode).toBe(401);
    expect((await otherBrowser.get('/api/v1/users/me')).statusCode).toBe(401);
    expect((await token.get('/api/v1/users/me')).statusCode).toBe(401);
    // The row, its sessions, tokens and drive entries, the file's bytes and the profile image are all gone.
    expect(await rowsOf()).toEqual({ users: 0, sessions: 0, tokens: 0, entries: 0 });
    expect(await servicesOf(t.app).drive.disk.stat(fileKey)).toBeNull();
    expect((await new TestClient(t.app).get(avatar)).statusCode).toBe(404);
  });

  it('tokens: read-only tokens change nothing, account changes need the account scope as well as the password', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const reader = await bearer(user.id, ['read']);
    expect((await reader.get('/api/v1/users/me')).statusCode).toBe(200);
    const refused = await reader.post('/api/v1/folders', { name: 'Nope' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This token may only read.');

    const writer = await bearer(user.id, ['read', 'write']);
    expect((await writer.post('/api/v1/folders', { name: 'Fine' })).statusCode).toBe(200);
    const noAccount = await writer.request('PUT', '/api/v1/users/me', { body: { email: `x-${user.id}@example.com`, current_password: user.password } });
    expect(noAccount.statusCode).toBe(403);
    expect((await writer.request('DELETE', '/api/v1/users/me?deleteCurrentUser=true', { body: { current_password: user.password } })).statusCode).toBe(403);
    expect(await emailOf(user.id)).toBe(user.email);

    const owner = await bearer(user.id, ['read', 'write', 'account']);
    expect((await owner.request('PUT', '/api/v1/users/me', { body: { email: `y-${user.id}@example.com` } })).statusCode).toBe(422);
    expect((await owner.request('PUT', '/api/v1/users/me', { body: { email: `y-${user.id}@example.com`, current_password: user.password } })).statusCode).toBe(
      200,
    );
  });

  it('an account without a password (social sign-in) confirms with a sign-in of the last ten minutes', async () => {
    const { user, client } = await signedIn();
    await servicesOf(t.app).db.kysely.updateTable('users').set({ password: null }).where('id', '=', user.id).execute();
    expect((await client.request('PUT', '/api/v1/users/me', { body: { email: `fresh-${user.id}@example.com` } })).statusCode).toBe(200);
    // The same session, an hour later.
    await servicesOf(t.app)
      .db.kysely.updateTable('sessions')
      .set({ created_at: new Date(Date.now() - 60 * 60 * 1000).toISOString(), last_active_at: nowIso() })
      .where('user_id', '=', user.id)
      .execute();
    const stale = await client.request('PUT', '/api/v1/users/me', { body: { email: `stale-${user.id}@example.com` } });
    expect(stale.statusCode).toBe(422);
    expect(stale.json().errors).toEqual({ current_password: ['Sign in again to confirm this change.'] });
  });
});
