import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITES_PER_HOUR } from '../../../server/modules/workspaces/index.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createWorkspace, workspaceRoles } from './support.js';
import { servicesOf } from '../support/services-handle.js';

describe('invite mail allowance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses with 429 and Retry-After once a user has sent an hour’s invites, resends included', async () => {
    const owner = await signedInUser(t.app);
    const roles = await workspaceRoles(owner.client);
    const id = await createWorkspace(owner.client);
    const batch = (n: number) => Array.from({ length: 50 }, (_, i) => `guest-${n}-${i}@example.com`);
    for (let n = 0; n < INVITES_PER_HOUR / 50; n += 1) {
      expect((await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: batch(n), roleId: roles.viewer })).statusCode).toBe(200);
    }
    const refused = await owner.client.post(`/api/v1/workspace/${id}/invite`, { emails: ['one-more@example.com'], roleId: roles.viewer });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const invite = await servicesOf(t.app).db.kysely.selectFrom('workspace_invites').select('id').where('workspace_id', '=', id).executeTakeFirstOrThrow();
    expect((await owner.client.post(`/api/v1/workspace/${id}/${invite.id}/resend`)).statusCode).toBe(429);
    // Someone else is not held back by it.
    const other = await signedInUser(t.app);
    const theirs = await createWorkspace(other.client);
    expect((await other.client.post(`/api/v1/workspace/${theirs}/invite`, { emails: ['friend@example.com'], roleId: roles.viewer })).statusCode).toBe(200);
  });
});
