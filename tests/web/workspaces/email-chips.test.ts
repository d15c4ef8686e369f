import { describe, expect, it } from 'vitest';
import { addChips, canSendInvites, chipsFromText, isValidEmail, toChip, withPending } from '../../../src/features/workspaces/lib/email-chips';

describe('invite email chips (spec §5 "Invite emails")', () => {
  it('accepts ordinary addresses and refuses what the pattern refuses', () => {
    expect(isValidEmail('ann@example.com')).toBe(true);
    expect(isValidEmail('a.b+tag@sub.example.co')).toBe(true);
    for (const bad of ['', 'ann', 'ann@', '@example.com', 'ann@example', 'ann @example.com', 'ann@-example.com']) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });

  it('limits the whole address to 320 characters and each domain label to 63', () => {
    const label63 = 'a'.repeat(63);
    expect(isValidEmail(`ann@${label63}.com`)).toBe(true);
    expect(isValidEmail(`ann@${label63}a.com`)).toBe(false);
    const long = `${'x'.repeat(64)}@${Array.from({ length: 5 }, () => label63).join('.')}.com`;
    expect(long.length).toBeGreaterThan(320);
    expect(isValidEmail(long)).toBe(false);
  });

  it('turns pasted text into one chip per email-like token', () => {
    const chips = chipsFromText('Ann <ann@example.com>, bob@example.com; "Carol" carol@example.org.');
    expect(chips.map((c) => c.name)).toEqual(['ann@example.com', 'bob@example.com', 'carol@example.org']);
    expect(chips.every((c) => !c.invalid)).toBe(true);
  });

  it('keeps a pasted value with no address as one invalid chip, and drops empty ones', () => {
    expect(chipsFromText('not an address')).toEqual([{ id: 'not an address', name: 'not an address', invalid: true }]);
    expect(chipsFromText('   ')).toEqual([]);
    expect(toChip('  ')).toBeNull();
  });

  it('skips duplicates by id, whatever the case', () => {
    const first = addChips([], chipsFromText('ann@example.com'));
    const next = addChips(first, chipsFromText('ANN@example.com bob@example.com'));
    expect(next.map((c) => c.name)).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('disables the invite button while any chip is invalid, none is given, or a request is pending', () => {
    const good = chipsFromText('ann@example.com');
    const bad = addChips(good, [toChip('nope')!]);
    expect(canSendInvites(good, false)).toBe(true);
    expect(canSendInvites(good, true)).toBe(false);
    expect(canSendInvites(bad, false)).toBe(false);
    expect(canSendInvites([], false)).toBe(false);
  });
});

describe('the address still being typed', () => {
  it('is sent with the chips, so typing and clicking Invite works the first time', () => {
    const chips = [toChip('a@example.com')!];
    expect(withPending(chips, 'b@example.com ').map((c) => c.name)).toEqual(['a@example.com', 'b@example.com']);
    expect(withPending(chips, 'A@example.com').map((c) => c.name)).toEqual(['a@example.com']);
    expect(withPending(chips, '  ')).toEqual(chips);
    expect(withPending([], 'not an email')[0]?.invalid).toBe(true);
  });
});
