import { describe, expect, it } from 'vitest';
import { driveDatabase } from '../../../src/offline/db';
import { userDatabase, userDatabaseName } from '../../../src/offline/user-db';

describe('the per-user database', () => {
  it('keeps notifications and drafts per user, apart from the per-workspace drive copy', async () => {
    const mine = userDatabase('u1');
    const theirs = userDatabase('u2');
    expect(userDatabase('u1')).toBe(mine);
    expect(mine.name).toBe(userDatabaseName('u1'));
    expect(mine.name).not.toBe(driveDatabase('u1', 0).name);

    await mine.drafts.put({ entryId: 'doc1', content: { ops: [] }, baseEtag: '"abc"', updatedAt: 1 });
    await mine.notifications.put({ id: 'n1', type: 'workspace_invitation', data: { inviteId: 'i' }, read_at: null, created_at: '2026-11-23T00:00:00Z' });
    expect(await mine.drafts.get('doc1')).toMatchObject({ baseEtag: '"abc"' });
    expect(await theirs.drafts.count()).toBe(0);
    expect(await theirs.notifications.count()).toBe(0);
  });
});
