import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
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
  constructor(private readonly dir: string) {}

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
    await fs.mkdir(this.dir, { recursive: true });
    const name = `${randomToken(18)}.webp`;
    await fs.writeFile(path.join(this.dir, name), output);
    return `${AVATAR_URL_PREFIX}${name}`;
  }

  /** Removes a stored avatar; addresses that are not ours (external URLs) are left alone. */
  async remove(url: string | null): Promise<void> {
    const name = this.nameOf(url);
    if (name) await fs.rm(path.join(this.dir, name), { force: true });
  }

  /** The bytes of a stored avatar, or null when there is none by that name. */
  async open(name: string): Promise<Readable | null> {
    const file = this.pathOf(name);
    if (!file) return null;
    const handle = await fs.open(file, 'r').catch(() => null);
    // The stream owns the handle and closes it.
    return handle ? handle.createReadStream() : null;
  }

  /** Path of a stored avatar, or null for anything that is not one of ours. */
  pathOf(name: string): string | null {
    return /^[A-Za-z0-9_-]{24}\.webp$/.test(name) ? path.join(this.dir, name) : null;
  }

  private nameOf(url: string | null): string | null {
    if (!url?.startsWith(AVATAR_URL_PREFIX)) return null;
    const name = url.slice(AVATAR_URL_PREFIX.length);
    return this.pathOf(name) ? name : null;
  }
}
