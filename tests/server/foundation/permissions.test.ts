import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { can, restriction } from '../../../server/modules/permissions/policy.js';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('permission rule (spec §6)', () => {
  it('grants a listed permission and refuses an unlisted one', () => {
    const holder = { permissions: [{ name: 'files.update', restrictions: [] }] };
    expect(can(holder, 'files.update')).toBe(true);
    expect(can(holder, 'admin.access')).toBe(false);
  });

  it('lets admin grant everything', () => {
    const admin = { permissions: [{ name: 'admin', restrictions: [] }] };
    expect(can(admin, 'admin.access')).toBe(true);
    expect(can(admin, 'anything.at.all')).toBe(true);
  });

  it('refuses everything to nobody', () => {
    expect(can(null, 'files.view')).toBe(false);
  });

  it('reads restriction values per permission', () => {
    const holder = { permissions: [{ name: 'workspaces.create', restrictions: [{ name: 'count', value: 3 }] }] };
    expect(restriction(holder, 'workspaces.create', 'count')).toBe(3);
    expect(restriction(holder, 'workspaces.create', 'other')).toBeUndefined();
    expect(restriction(holder, 'files.create', 'count')).toBeUndefined();
  });
});

describe('permissions from the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('gives users the permissions of their roles, and direct grants override restrictions', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely, {
      permissions: [{ name: 'workspaces.create', restrictions: [{ name: 'count', value: 5 }] }],
    });
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const { data } = (await client.get('/api/v1/bootstrap-data')).json();
    const names = data.user.permissions.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['files.view', 'files.update', 'workspaces.create']));
    expect(names).not.toContain('admin');
    expect(new Set(names).size).toBe(names.length);
    expect(restriction(data.user, 'workspaces.create', 'count')).toBe(5);
  });

  it('answers the guest role from the database', async () => {
    const db = servicesOf(t.app).db.kysely;
    const guests = await db.selectFrom('roles').select('id').where('guests', '=', 1).executeTakeFirstOrThrow();
    const permission = await db.selectFrom('permissions').select('id').where('name', '=', 'files.view').executeTakeFirstOrThrow();
    await db.insertInto('role_permissions').values({ role_id: guests.id, permission_id: permission.id, restrictions: '[]' }).execute();
    const { data } = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json();
    expect(data.guest_role.permissions).toEqual([{ name: 'files.view', restrictions: [] }]);
    expect(can(data.guest_role, 'files.view')).toBe(true);
    expect(can(data.guest_role, 'files.update')).toBe(false);
  });
});
