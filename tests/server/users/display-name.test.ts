import { describe, expect, it } from 'vitest';
import { displayName } from '../../../server/modules/users/presenter.js';

describe('displayName', () => {
  const of = (first_name: string | null, last_name: string | null, email = 'ada@example.com') => displayName({ first_name, last_name, email });

  it('is the first and last name, either alone, trimmed', () => {
    expect(of('Ada', 'Lovelace')).toBe('Ada Lovelace');
    expect(of('Ada', null)).toBe('Ada');
    expect(of(null, 'Lovelace')).toBe('Lovelace');
    expect(of(' Ada ', '')).toBe('Ada');
    expect(of('Ada ', ' Lovelace ')).toBe('Ada   Lovelace');
  });

  it("falls back to the email's part before the @ (the whole address if it has none)", () => {
    expect(of(null, null)).toBe('ada');
    expect(of('  ', '')).toBe('ada');
    expect(of(null, null, 'a@b@c')).toBe('a');
    expect(of(null, null, 'local')).toBe('local');
  });
});
