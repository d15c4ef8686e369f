import { Readable } from 'node:stream';
import sharp from 'sharp';
import { ObjectMissingError, type Disk } from '../../storage/disk.js';
import { ValidationError } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';

/** A new profile image: the bytes of an uploaded file, or an address to fetch them from. */
export type AvatarInput = { kind: 'file'; bytes: Buffer } | { kind: 'url'; url: string };

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_SIZE = 256;
const INVALID_IMAGE = 'Please select an image.';
export const AVATAR_URL_PREFIX = '/api/v1/avatars/';

/**
 * Profile images: whatever arrives (upload or fetched URL) is decoded and
 * re-encoded by sharp, so only a clean, small WebP is ever stored or served.
 */
export class AvatarStore {
  /** The avatars' own disk (a folder, or a prefix of the S3 bucket). */
  constructor(private readonly disk: Disk) {}

  async save(input: Buffer): Promise<string> {
    if (input.length > AVATAR_MAX_BYTES) throw ValidationError.field('avatar', 'The image may not be greater than 2 MB.');
    let output: Buffer;
    try {
      const image = sharp(input, { limitInputPixels: 40_000_000, failOn: 'error' });
      const meta = await image.metadata();
      if (!meta.format || !['jpeg', 'png', 'gif', 'webp', 'avif', 'tiff', 'heif'].includes(meta.format)) {
        throw new Error('not an image');
      }
      output = await image.rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).webp({ quality: 85 }).toBuffer();
    } catch {
      throw ValidationError.field('avatar', INVALID_IMAGE);
    }
    const name = `${randomToken(18)}.webp`;
    await this.disk.put(name, Readable.from([output]));
    return `${AVATAR_URL_PREFIX}${name}`;
  }

  /** Removes a stored avatar; addresses that are not ours (external URLs) are left alone. */
  async remove(url: string | null): Promise<void> {
    const name = this.nameOf(url);
    if (name) await this.disk.delete(name);
  }

  /** The bytes of a stored avatar, or null when there is none by that name. */
  async open(name: string): Promise<Readable | null> {
    if (!isAvatarName(name)) return null;
    return this.disk.get(name).catch((error: unknown) => {
      if (error instanceof ObjectMissingError) return null;
      throw error;
    });
  }

  private nameOf(url: string | null): string | null {
    if (!url?.startsWith(AVATAR_URL_PREFIX)) return null;
    const name = url.slice(AVATAR_URL_PREFIX.length);
    return isAvatarName(name) ? name : null;
  }
}

/** Only names this store made: anything else is not one of ours. */
const isAvatarName = (name: string): boolean => /^[A-Za-z0-9_-]{24}\.webp$/.test(name);
