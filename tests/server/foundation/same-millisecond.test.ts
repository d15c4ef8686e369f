import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as insertionOrder from '../../../server/db/migrations/2026_11_26_000010_insertion_order.js';
import { CustomPagesRepository } from '../../../server/modules/custom-pages/repository.js';
import { pageBody } from '../../../server/modules/custom-pages/schemas.js';
import { ShareLinksRepository } from '../../../server/modules/share-links/repository.js';
import { nowIso } from '../../../server/lib/time.js';
import type { TestClient } from '../support/client.js';
import { actorFor, createFolder, signedInUser } from '../support/drive-factories.js';
import { makeLink } from '../share-links/support.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createWorkspace, workspaceRoles } from '../workspaces/support.js';
import { servicesOf } from '../support/services-handle.js';

/**
 * Issue 29: every list the server pages by time follows insertion, even for
 * rows written in one millisecond (a fast machine makes such ties common).
 * The clock is stopped while the rows are made through the code that makes
 * them in use; each list is then read page by page through its route and must
 * answer every row once, newest first (oldest first where the list says so).
 */
const ROWS = 1000;
// Volume, not slowness: 1,000 rows a list through the real write paths on a shared 2-core machine.
const VOLUME_TIMEOUT = 120_000;

/** Runs `make` with the clock stopped, so every timestamp it writes is the same millisecond. */
async function inOneMillisecond<T>(make: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  try {
    return await make();
  } finally {
    vi.useRealTimers();
  }
}

async function times<T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let i = 0; i < count; i += 1) made.push(await make(i));
  return made;
}

interface Row {
  id: string | number;
  created_at?: string;
}

/** Reads numbered pages (`page=1, 2, …`) until the last one. */
async function numberedPages(client: TestClient, path: (page: number) => string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page += 1) {
    const response = await client.get(path(page));
    expect(response.statusCode, response.body).toBe(200);
    const { data, last_page } = response.json().pagination as { data: Row[]; last_page: number };
    rows.push(...data);
    if (page >= last_page) return rows;
  }
}

/** Follows `next_cursor` until it runs out. */
async function cursorPages(client: TestClient, path: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const response = await client.get(cursor ? `${path}&cursor=${encodeURIComponent(cursor)}` : path);
    expect(response.statusCode, response.body).toBe(200);
    const { data, next_cursor } = response.json().pagination as { data: Row[]; next_cursor: string | null };
    rows.push(...data);
    cursor = next_cursor;
  } while (cursor);
  return rows;
}

/** The tie the test is about is really there: one timestamp for all. */
function expectOneMillisecond(rows: Row[], field: 'created_at' = 'created_at') {
  expect(new Set(rows.map((row) => row[field])).size).toBe(1);
}

describe('time-ordered lists follow insertion within one millisecond (issue 29)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedInUser>>;
  const db = () => servicesOf(t.app).db.kysely;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedInUser(t.app, { roles: ['admin'] });
  });
  afterAll(() => t.close());

  it(
    'notifications: 1,000 made in one millisecond read back newest first, 30 a page, each once',
    async () => {
      const { user, client } = await signedInUser(t.app);
      // The in-app row is what is listed; 1,000 mails would only slow the test.
      await client.request('PUT', '/api/v1/notifications/me/subscriptions', { body: { selections: [{ notif_id: 'A01', channels: { email: false } }] } });
      const made = await inOneMillisecond(() =>
        times(ROWS, (i) =>
          servicesOf(t.app).notifications.notifier.notify(user.id, 'file-entry-shared', () => ({
            image: 'people',
            lines: [{ content: `note ${i}` }],
            mainAction: { label: 'Open', action: '/drive/shares' },
          })),
        ),
      );
      const read = await numberedPages(client, (page) => `/api/v1/notifications?page=${page}`);
      expectOneMillisecond(read);
      expect(read.map((row) => row.id)).toEqual(made.reverse());
    },
    VOLUME_TIMEOUT,
  );

  it(
    'admin activity: 1,000 actions in one millisecond, newest first, page by page',
    async () => {
      const caller = { userId: admin.user.id, email: 'same-ms@example.com', ip: null };
      await inOneMillisecond(() =>
        times(ROWS, (i) => servicesOf(t.app).admin.activity.record(caller, { action: 'same-ms.test', subjectType: 'test', subjectId: i })),
      );
      const read = await numberedPages(admin.client, (page) => `/api/v1/admin/activity?query=same-ms.test&perPage=100&page=${page}`);
      expectOneMillisecond(read);
      const subjects = (read as (Row & { subject_id: string })[]).map((row) => Number(row.subject_id));
      expect(subjects).toEqual([...Array(ROWS).keys()].reverse());
    },
    VOLUME_TIMEOUT,
  );

  it(
    'a share link’s access log: 1,000 visits in one millisecond, newest first, page by page',
    async () => {
      const owner = await signedInUser(t.app);
      const link = await makeLink(owner, await createFolder(owner.client, 'Shared'));
      const repo = new ShareLinksRepository(db());
      await inOneMillisecond(() => times(ROWS, (i) => repo.addEvent(link.id, 'open', `visit ${i}`, null)));
      const read = await numberedPages(owner.client, (page) => `/api/v1/share-links/${link.id}/events?page=${page}`);
      expectOneMillisecond(read);
      expect((read as (Row & { entry_name: string })[]).map((row) => row.entry_name)).toEqual([...Array(ROWS).keys()].reverse().map((i) => `visit ${i}`));
    },
    VOLUME_TIMEOUT,
  );

  it(
    'drive entries: 1,000 folders made in one millisecond page by cursor, by number and in the trash, newest first',
    async () => {
      const owner = await signedInUser(t.app);
      const actor = await actorFor(t.app, owner.user);
      const scope = await servicesOf(t.app).drive.scope(actor, null);
      const made = await inOneMillisecond(async () => {
        const folders = await times(ROWS, async (i) => (await servicesOf(t.app).drive.entries.createFolder(actor, scope, { name: `folder ${i}` })).hash);
        return folders;
      });
      const newestFirst = [...made].reverse();
      const hashes = (rows: Row[]) => (rows as (Row & { hash: string })[]).map((row) => row.hash);

      // The drive's own listing: updated (its default) and created, by cursor, and by page number.
      const updated = await cursorPages(owner.client, '/api/v1/drive/file-entries?perPage=75');
      expectOneMillisecond(updated);
      expect(hashes(updated)).toEqual(newestFirst);
      expect(hashes(await cursorPages(owner.client, '/api/v1/drive/file-entries?perPage=75&orderBy=created_at'))).toEqual(newestFirst);
      const byNumber = await numberedPages(owner.client, (page) => `/api/v1/drive/file-entries?perPage=75&page=${page}`);
      expect(hashes(byNumber)).toEqual(newestFirst);

      // Trashed in one call, they share their deletion time too.
      const trashed = await inOneMillisecond(() => owner.client.post('/api/v1/file-entries/delete', { entryIds: made }));
      expect(trashed.statusCode, trashed.body).toBe(200);
      expect(hashes(await cursorPages(owner.client, '/api/v1/drive/file-entries?deletedOnly=true&perPage=75'))).toEqual(newestFirst);

      // The admin's table of every file, narrowed to this owner.
      const files = await numberedPages(admin.client, (page) => `/api/v1/admin/files?ownerId=${owner.user.id}&orderBy=created_at&perPage=100&page=${page}`);
      expect(hashes(files)).toEqual(newestFirst);
    },
    VOLUME_TIMEOUT,
  );

  it(
    'admin users and workspaces: 1,000 made in one millisecond, newest first by created_at, page by page',
    async () => {
      // Rows as registration and workspace creation write them, in one statement each
      // (hashing 1,000 passwords would only slow the test; nothing here reads them).
      const { users, workspaces } = await inOneMillisecond(async () => {
        const now = nowIso();
        const users = await db()
          .insertInto('users')
          .values([...Array(ROWS).keys()].map((i) => ({ email: `same-ms-${i}@example.com`, password: 'x', created_at: now, updated_at: now })))
          .returning('id')
          .execute();
        const workspaces = await db()
          .insertInto('workspaces')
          .values([...Array(ROWS).keys()].map((i) => ({ name: `same-ms-space-${i}`, owner_id: admin.user.id, created_at: now, updated_at: now })))
          .returning('id')
          .execute();
        return { users: users.map((row) => row.id), workspaces: workspaces.map((row) => row.id) };
      });
      const readUsers = await numberedPages(admin.client, (page) => `/api/v1/admin/users?query=same-ms-&orderBy=created_at&perPage=100&page=${page}`);
      expectOneMillisecond(readUsers);
      expect(readUsers.map((row) => row.id)).toEqual([...users].sort((a, b) => a - b).reverse());
      const readSpaces = await numberedPages(
        admin.client,
        (page) => `/api/v1/admin/workspaces?query=same-ms-space&orderBy=created_at&perPage=100&page=${page}`,
      );
      expectOneMillisecond(readSpaces);
      expect(readSpaces.map((row) => row.id)).toEqual([...workspaces].sort((a, b) => a - b).reverse());
    },
    VOLUME_TIMEOUT,
  );

  it(
    'custom pages: 1,000 made in one millisecond, by time both ways, page by page',
    async () => {
      const repo = new CustomPagesRepository(db());
      const made = await inOneMillisecond(() =>
        times(ROWS, (i) => repo.insert(pageBody.parse({ title: `Same ms ${i}`, slug: `same-ms-${i}`, body: '<p>x</p>' }), admin.user.id)),
      );
      for (const [orderBy, orderDir] of [
        ['created_at', 'asc'],
        ['updated_at', 'desc'],
      ] as const) {
        const read = await numberedPages(
          admin.client,
          (page) => `/api/v1/admin/custom-pages?query=same-ms-&orderBy=${orderBy}&orderDir=${orderDir}&perPage=100&page=${page}`,
        );
        expectOneMillisecond(read);
        expect(read.map((row) => row.id)).toEqual(orderDir === 'asc' ? made : [...made].reverse());
      }
    },
    VOLUME_TIMEOUT,
  );

  it('workspace invites: 50 sent in one call (one millisecond) are listed in the order given', async () => {
    const owner = await signedInUser(t.app);
    const roles = await workspaceRoles(owner.client);
    const id = await createWorkspace(owner.client);
    // Reversed alphabetical order, so neither the address nor chance can pass for the order given.
    const emails = [...Array(50).keys()].map((i) => `invitee-${String(99 - i).padStart(2, '0')}@example.com`);
    const invited = await inOneMillisecond(() => owner.client.post(`/api/v1/workspace/${id}/invite`, { emails, roleId: roles.viewer }));
    expect(invited.statusCode, invited.body).toBe(200);
    const listed = await owner.client.get(`/api/v1/workspace/${id}?with=invites`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json().workspace.invites as { email: string }[]).map((invite) => invite.email)).toEqual(emails);
    const stored = await db().selectFrom('workspace_invites').select('created_at').where('workspace_id', '=', id).execute();
    expect(new Set(stored.map((row) => row.created_at)).size).toBe(1);
  });

  // Last: it takes the schema back a step and forward again.
  it('the migration numbers rows already stored in their old order, and new rows come after them', async () => {
    const { user, client } = await signedInUser(t.app);
    const data = (content: string) => JSON.stringify({ image: 'people', lines: [{ content }], mainAction: { label: 'Open', action: '/' } });
    await insertionOrder.down(db());
    // The old order: created_at, then id. One row written later carries an earlier time.
    const old = [
      { id: 'b-tied-second', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'a-tied-first', created_at: '2026-01-01T00:00:00.000Z' },
      { id: 'c-oldest', created_at: '2025-12-31T00:00:00.000Z' },
    ];
    await db()
      .insertInto('notifications')
      .values(old.map((row) => ({ ...row, user_id: user.id, type: 'file-entry-shared', data: data(row.id), read_at: null })))
      .execute();
    await insertionOrder.up(db());

    const newest = await servicesOf(t.app).notifications.notifier.notify(user.id, 'file-entry-shared', () => ({
      image: 'people',
      lines: [{ content: 'after the migration' }],
      mainAction: { label: 'Open', action: '/' },
    }));
    const read = await numberedPages(client, (page) => `/api/v1/notifications?page=${page}`);
    expect(read.map((row) => row.id)).toEqual([newest, 'b-tied-second', 'a-tied-first', 'c-oldest']);
  });
});
