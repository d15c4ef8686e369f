// Spec §5 "Profile image" and §9: image types only, at most 2 MB.
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_PREVIEW_SIZE = 110;
export const AVATAR_INVALID = 'Please select an image.';
export const AVATAR_ACCEPT = 'image/*';

/** Null when the file may be uploaded as a profile image, else the message to show. */
export function checkAvatarFile(file: Pick<File, 'type' | 'size'> | null | undefined): string | null {
  if (!file) return AVATAR_INVALID;
  if (!file.type.startsWith('image/')) return AVATAR_INVALID;
  if (file.size <= 0 || file.size > AVATAR_MAX_BYTES) return AVATAR_INVALID;
  return null;
}
