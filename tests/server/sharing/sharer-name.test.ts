import { describe, expect, it } from 'vitest';
import { sharerName } from '../../../server/modules/sharing/index.js';

describe('sharerName', () => {
  const users = {
    findById: async (id: number) => (id === 1 ? ({ id: 1, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } as never) : undefined),
  };

  it('names the sharer by their display name', async () => {
    expect(await sharerName(users)(1)).toBe('Ada Lovelace');
  });

  it('says "Someone" once the account is gone', async () => {
    expect(await sharerName(users)(2)).toBe('Someone');
  });
});
