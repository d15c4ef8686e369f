import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { housekeep } from '../../../server/jobs/housekeeping.js';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('housekeeping', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('removes expired sessions and spent or expired tokens, and keeps live ones', async () => {
    const db = servicesOf(t.app).db.kysely;
    const user = await createUser(db);
    const live = new TestClient(t.app);
    await live.login(user.email, user.password);
    const stale = new TestClient(t.app);
    await stale.login(user.email, user.password);
    const staleToken = stale.cookies.get('drive_session')!;
    const { sha256 } = await import('../../../server/lib/tokens.js');
    await db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', sha256(staleToken))
      .execute();

    const tokens = servicesOf(t.app).auth.userTokens;
    await tokens.issue(user.id, 'verify_email', 60_000);
    const spent = await tokens.issue(user.id, 'reset_password', 60_000);
    await tokens.consume(spent, 'reset_password');

    expect(await housekeep(db)).toEqual({ sessions: 1, userTokens: 1 });
    expect((await live.get('/api/v1/bootstrap-data')).json().data.user.id).toBe(user.id);
    const left = await db.selectFrom('user_tokens').select('type').where('user_id', '=', user.id).execute();
    expect(left).toEqual([{ type: 'verify_email' }]);
  });
});
