import { describe, expect, it } from 'vitest';
import { purgeMessage } from '../../../src/features/drive/lib/trash-messages';

const DAY = 24 * 60 * 60 * 1000;

describe('the trash line "deleted forever in N days"', () => {
  const now = Date.parse('2026-03-01T10:00:00.000Z');
  it('counts whole days up to the purge time, and says "within a day" at the end', () => {
    expect(purgeMessage(new Date(now + 30 * DAY).toISOString(), now)).toEqual({ key: 'Deleted forever in :count days', values: { count: 30 } });
    expect(purgeMessage(new Date(now + 29 * DAY + 1).toISOString(), now)).toEqual({ key: 'Deleted forever in :count days', values: { count: 30 } });
    expect(purgeMessage(new Date(now + DAY - 1).toISOString(), now)).toEqual({ key: 'Deleted forever within a day' });
  });
});
