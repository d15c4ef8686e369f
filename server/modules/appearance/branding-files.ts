import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { ValidationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import { randomToken } from '../../lib/tokens.js';
import { ObjectMissingError, type Disk } from '../../storage/disk.js';

export const BRANDING_MAX_BYTES = 1024 * 1024;
export const BRANDING_URL_PREFIX = '/api/v1/branding/';
export const BRANDING_TOO_LARGE = 'The image may not be greater than 1 MB.';
export const BRANDING_WRONG_TYPE = 'Upload a PNG, JPEG, GIF, WebP, ICO or SVG image.';

/** The types a logo or favicon may have, by the sniffed (never the declared) type. */
const RASTER: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/x-icon': 'ico',
  'image/vnd.microsoft.icon': 'ico',
};
const SVG_START = /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i;
const NAME = /^[A-Za-z0-9_-]{24}\.(png|jpg|gif|webp|ico|svg)$/;

/**
 * Logos and favicons an admin uploads. Bytes go to a storage disk under
 * `branding/`; the type checked at upload is kept in the database and is the
 * only type they are ever served with.
 */
export class BrandingFiles {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly disk: Disk,
  ) {}

  /** Checks and stores an upload; answers the address it is served at. */
  async save(bytes: Buffer, uploadedBy: number | null): Promise<{ url: string; mime: string; size: number }> {
    if (bytes.length > BRANDING_MAX_BYTES) throw ValidationError.field('file', BRANDING_TOO_LARGE);
    const mime = await sniff(bytes);
    if (!mime) throw ValidationError.field('file', BRANDING_WRONG_TYPE);
    const extension = mime === 'image/svg+xml' ? 'svg' : RASTER[mime]!;
    const name = `${randomToken(18)}.${extension}`;
    await this.disk.put(`branding/${name}`, Readable.from([bytes]));
    await this.db.insertInto('branding_files').values({ name, mime, size: bytes.length, uploaded_by: uploadedBy, created_at: nowIso() }).execute();
    return { url: `${BRANDING_URL_PREFIX}${name}`, mime, size: bytes.length };
  }

  /** A stored file's type, size and bytes, or null for a name that is not one of ours. */
  async open(name: string): Promise<{ mime: string; size: number; body: Readable } | null> {
    if (!NAME.test(name)) return null;
    const row = await this.db.selectFrom('branding_files').select(['mime', 'size']).where('name', '=', name).executeTakeFirst();
    if (!row) return null;
    try {
      return { mime: row.mime, size: row.size, body: await this.disk.get(`branding/${name}`) };
    } catch (error) {
      if (error instanceof ObjectMissingError) return null;
      throw error;
    }
  }

  /** The recorded type of one of our addresses (for the manifest's icons), else null. */
  async typeOf(url: string): Promise<string | null> {
    if (!url.startsWith(BRANDING_URL_PREFIX)) return null;
    const row = await this.db.selectFrom('branding_files').select('mime').where('name', '=', url.slice(BRANDING_URL_PREFIX.length)).executeTakeFirst();
    return row?.mime ?? null;
  }
}

async function sniff(bytes: Buffer): Promise<string | null> {
  const found = await fileTypeFromBuffer(bytes);
  if (found && found.mime !== 'application/xml') return found.mime in RASTER ? found.mime : null;
  // SVG is text, which file-type does not name: look for an <svg> root.
  return SVG_START.test(bytes.subarray(0, 4096).toString('utf8')) ? 'image/svg+xml' : null;
}
