import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSafeAction } from '../../../server/modules/notifications/types.js';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { mailsTo } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createWorkspace, workspaceRoles } from '../workspaces/support.js';
import { servicesOf } from '../support/services-handle.js';

interface Notification {
  id: string;
  type: string;
  read_at: string | null;
  data: { lines: { content: string }[]; mainAction: { label: string; action: string }; buttonActions?: { label: string }[]; inviteId?: string; image: string };
}

describe('notifications (spec §3, §4, §7)', () => {
  let t: TestApp;
  let roles: Awaited<ReturnType<typeof workspaceRoles>>;

  beforeAll(async () => {
    t = await createTestApp();
    roles = await workspaceRoles((await signedInUser(t.app)).client);
  });
  afterAll(() => t.close());

  const list = async (client: TestClient, page = 1) => {
    const response = await client.get(`/api/v1/notifications?page=${page}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().pagination as { data: Notification[]; total: number; per_page: number; last_page: number };
  };

  const notifyPlain = (userId: number, text: string) =>
    servicesOf(t.app).notifications.notifier.notify(userId, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: text }],
      mainAction: { label: 'Open', action: '/drive/shares' },
    }));

  it('brings a workspace invitation to an existing account with Join and Decline, by email too', async () => {
    const owner = await signedInUser(t.app);
    const invitee = await signedInUser(t.app);
    const id = await createWorkspace(owner.client, 'Research');
    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: [invitee.user.email], roleId: roles.viewer });
    await servicesOf(t.app).jobs.idle();

    const [notification] = (await list(invitee.client)).data;
    expect(notification).toMatchObject({ type: 'workspace-invitation', read_at: null, data: { image: 'group-add', mainAction: { label: 'Join' } } });
    expect(notification!.data.lines[0]!.content).toMatch(/^Test User \d+ invited you to join Research$/);
    expect(notification!.data.buttonActions!.map((b) => b.label)).toEqual(['Join', 'Decline']);
    const invite = await servicesOf(t.app)
      .db.kysely.selectFrom('workspace_invites')
      .select('id')
      .where('email', '=', invitee.user.email)
      .executeTakeFirstOrThrow();
    expect(notification!.data.inviteId).toBe(invite.id);
    expect(notification!.data.mainAction.action).toBe(`/drive?invite=${invite.id}`);
    expect((await invitee.client.get('/api/v1/bootstrap-data')).json().data.user.unread_notifications_count).toBe(1);
    expect((await mailsTo(t.dataDir, invitee.user.email))[0]!.text).toContain('/workspace/join/login?');
  });

  it('lists 30 a page, newest first', async () => {
    const { client, user } = await signedInUser(t.app);
    for (let i = 1; i <= 31; i += 1) await notifyPlain(user.id, `note ${i}`);
    const first = await list(client);
    expect(first).toMatchObject({ total: 31, per_page: 30, last_page: 2 });
    expect(first.data).toHaveLength(30);
    expect(first.data[0]!.data.lines[0]!.content).toBe('note 31');
    expect((await list(client, 2)).data.map((n) => n.data.lines[0]!.content)).toEqual(['note 1']);
  });

  it("marks only one's own notifications read and answers the unread count", async () => {
    const me = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    await notifyPlain(me.user.id, 'mine 1');
    await notifyPlain(me.user.id, 'mine 2');
    await notifyPlain(other.user.id, 'theirs');
    const mine = (await list(me.client)).data;
    const theirs = (await list(other.client)).data;

    const answer = await me.client.post('/api/v1/notifications/mark-as-read', { ids: [mine[0]!.id, theirs[0]!.id] });
    expect(answer.json()).toEqual({ unreadCount: 1 });
    expect((await list(other.client)).data[0]!.read_at).toBeNull();
    expect((await me.client.post('/api/v1/notifications/mark-as-read', { ids: mine.map((n) => n.id) })).json()).toEqual({ unreadCount: 0 });
  });

  it('keeps each user’s channel choices and sends by email only when it is on', async () => {
    const owner = await signedInUser(t.app);
    const invitee = await signedInUser(t.app);
    const before = (await invitee.client.get('/api/v1/notifications/me/subscriptions')).json();
    expect(before.available_channels).toEqual(['email', 'browser']);
    expect(before.subscriptions[0].subscriptions.map((s: { notif_id: string }) => s.notif_id)).toEqual(['W01', 'A01', 'L01', 'L02']);
    expect(before.user_selections).toContainEqual({ notif_id: 'W01', channels: { email: true, browser: true } });

    const saved = await invitee.client.request('PUT', '/api/v1/notifications/me/subscriptions', {
      body: { selections: [{ notif_id: 'W01', channels: { email: false } }] },
    });
    expect(saved.json()).toEqual({ message: 'Updated preferences' });
    expect((await invitee.client.get('/api/v1/notifications/me/subscriptions')).json().user_selections).toContainEqual({
      notif_id: 'W01',
      channels: { email: false, browser: true },
    });

    const id = await createWorkspace(owner.client);
    await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: [invitee.user.email], roleId: roles.viewer });
    await servicesOf(t.app).jobs.idle();
    expect(await mailsTo(t.dataDir, invitee.user.email)).toEqual([]);
    expect((await list(invitee.client)).data).toHaveLength(1);

    const unknownType = await invitee.client.request('PUT', '/api/v1/notifications/me/subscriptions', {
      body: { selections: [{ notif_id: 'X99', channels: { email: true } }] },
    });
    expect(unknownType.statusCode).toBe(422);
    const unknownChannel = await invitee.client.request('PUT', '/api/v1/notifications/me/subscriptions', {
      body: { selections: [{ notif_id: 'W01', channels: { sms: true } }] },
    });
    expect(unknownChannel.statusCode).toBe(422);
  });

  it('streams the unread count to open pages as it changes', async () => {
    const { client, user } = await signedInUser(t.app);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const controller = new AbortController();
    const response = await fetch(`${address}/api/v1/notifications/stream`, { headers: { cookie }, signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextEvent = async () => {
      while (!buffer.includes('\n\n')) buffer += decoder.decode((await reader.read()).value);
      const [event, ...rest] = buffer.split('\n\n');
      buffer = rest.join('\n\n');
      return JSON.parse(
        event!
          .split('\n')
          .find((l) => l.startsWith('data: '))!
          .slice(6),
      ) as { unreadCount: number };
    };
    expect(await nextEvent()).toEqual({ unreadCount: 0 });
    await notifyPlain(user.id, 'live');
    expect(await nextEvent()).toEqual({ unreadCount: 1 });
    controller.abort();
  });

  it('refuses a guest on every notification call', async () => {
    const guest = new TestClient(t.app);
    for (const url of ['/api/v1/notifications', '/api/v1/notifications/me/subscriptions', '/api/v1/notifications/push/key', '/api/v1/notifications/stream']) {
      expect((await guest.get(url)).statusCode, url).toBe(401);
    }
    expect((await guest.post('/api/v1/notifications/mark-as-read', { ids: [] })).statusCode).toBe(401);
    expect((await guest.request('PUT', '/api/v1/notifications/me/subscriptions', { body: { selections: [] } })).statusCode).toBe(401);
    expect(
      (await guest.post('/api/v1/notifications/push/subscriptions', { endpoint: 'https://push.example/x', keys: { p256dh: 'a', auth: 'b' } })).statusCode,
    ).toBe(401);
  });

  it('allows only app paths and https addresses as actions', () => {
    expect(['/drive?invite=x', 'https://example.com/a'].every(isSafeAction)).toBe(true);
    expect(['javascript:alert(1)', '//evil.example', '/\\evil.example', 'data:text/html,x', 'http://example.com'].some(isSafeAction)).toBe(false);
    // Issue 30 finding 7: what a browser reads as another host.
    expect(['/\t/evil.example', '/\n/evil.example', ' \u0000//evil.example', '/\r\\evil.example'].some(isSafeAction)).toBe(false);
  });
});
