import { describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES, checkAvatarFile } from '../../../src/features/account/avatar-file';

const MB = 1024 * 1024;

describe('profile image check', () => {
  it('accepts images up to 2 MB', () => {
    expect(AVATAR_MAX_BYTES).toBe(2 * MB);
    expect(checkAvatarFile({ type: 'image/png', size: 1000 })).toBeNull();
    expect(checkAvatarFile({ type: 'image/jpeg', size: 2 * MB })).toBeNull();
    expect(checkAvatarFile(new File([new Uint8Array(10)], 'a.webp', { type: 'image/webp' }))).toBeNull();
  });

  it('refuses other types, larger files, empty files and no file', () => {
    expect(checkAvatarFile({ type: 'application/pdf', size: 1000 })).toBe('Please select an image.');
    expect(checkAvatarFile({ type: '', size: 1000 })).toBe('Please select an image.');
    expect(checkAvatarFile({ type: 'image/png', size: 2 * MB + 1 })).toBe('Please select an image.');
    expect(checkAvatarFile({ type: 'image/png', size: 0 })).toBe('Please select an image.');
    expect(checkAvatarFile(null)).toBe('Please select an image.');
  });
});
