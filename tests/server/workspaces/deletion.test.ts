import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/types.js';
import { workspaceDeletion } from '../../../server/modules/workspaces/index.js';

describe('workspaceDeletion', () => {
  const trx = {} as Kysely<Database>;

  it('trashes the workspace’s entries before deleting it, in the caller’s transaction', async () => {
    const calls: string[] = [];
    const remove = workspaceDeletion(
      async (t, id) => {
        calls.push(`trash ${id} ${t === trx}`);
        return 3;
      },
      { delete: async (t, id) => void calls.push(`delete ${id} ${t === trx}`) },
    );
    await remove(trx, 5);
    expect(calls).toEqual(['trash 5 true', 'delete 5 true']);
  });

  it('deletes nothing when trashing the entries fails', async () => {
    const calls: string[] = [];
    const remove = workspaceDeletion(
      async () => {
        throw new Error('disk gone');
      },
      { delete: async () => void calls.push('delete') },
    );
    await expect(remove(trx, 5)).rejects.toThrow('disk gone');
    expect(calls).toEqual([]);
  });
});
