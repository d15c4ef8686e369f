import sharp from 'sharp';
import type { Actor } from '../access/actor.js';
import type { DriveFacade } from '../drive/facade.js';
import { docxTooLarge } from './errors.js';
import { openDocx, type DocumentPackage } from './docx-read.js';
import type { ResolvedImage } from './docx-write.js';
import type { Section, ListItem, Run } from './model.js';
import { PACKAGE_LIMITS } from './package.js';

/**
 * Where the images of saved content come from. An image item may only name
 * the document's own package (file-entries/{id}/document-images/{name}) or an
 * image in the drive the caller may view (file-entries/{id}/preview): both are
 * read from our own disk, after the policy's check. Anything else — remote
 * addresses above all — is dropped: the server never fetches a URL.
 */
/** Bounds on one save's image work: images, bytes per drive image, other documents' packages opened. */
export const IMAGE_LIMITS = { count: 200, bytes: 20 * 1024 * 1024, maxWidth: 640, packages: 5 };

const OWN = /^(?:\/?api\/v1\/)?\/?file-entries\/([A-Za-z0-9_-]{1,64})\/(document-images\/([a-f0-9]{32}\.(?:png|jpe?g))|preview)(?:\?[^#]*)?$/;

export type ImageAddress = { kind: 'package'; hash: string; name: string } | { kind: 'drive'; hash: string };

export function parseImageAddress(address: string): ImageAddress | null {
  const match = OWN.exec(address.trim());
  if (!match) return null;
  return match[3] ? { kind: 'package', hash: match[1]!, name: match[3] } : { kind: 'drive', hash: match[1]! };
}

export const documentImageAddress = (hash: string, name: string) => `/api/v1/file-entries/${hash}/document-images/${name}`;

function* imageRuns(sections: Section[]): Generator<Extract<Run, { type: 'image' }>> {
  const fromItems = function* (items: ListItem[] | undefined): Generator<Extract<Run, { type: 'image' }>> {
    for (const item of items ?? []) {
      for (const run of item.runs) if (run.type === 'image') yield run;
      yield* fromItems(item.subItems);
    }
  };
  for (const section of sections) {
    for (const run of section.runs) if (run.type === 'image') yield run;
    yield* fromItems(section.items);
  }
}

const typeOf = (mime: string): 'png' | 'jpg' | null => (mime === 'image/png' ? 'png' : mime === 'image/jpeg' ? 'jpg' : null);

/** Every image the content names, resolved to bytes (or left out); the writer looks them up by address. */
export async function resolveImages(
  actor: Actor,
  drive: Pick<DriveFacade, 'readWhole'>,
  own: { hash: string; pkg: DocumentPackage },
  sections: Section[],
): Promise<Map<string, ResolvedImage>> {
  const resolved = new Map<string, ResolvedImage>();
  const packages = new Map<string, DocumentPackage | null>([[own.hash, own.pkg]]);
  const tooLarge = docxTooLarge;
  let budget = PACKAGE_LIMITS.totalBytes;
  for (const run of imageRuns(sections)) {
    if (resolved.has(run.address) || resolved.size >= IMAGE_LIMITS.count) continue;
    const address = parseImageAddress(run.address);
    if (!address) continue;
    let found: { bytes: Buffer; mime: string } | undefined;
    try {
      if (address.kind === 'package') {
        if (!packages.has(address.hash)) {
          if (packages.size > IMAGE_LIMITS.packages) continue;
          const { bytes } = await drive.readWhole(actor, address.hash, 'files.view', PACKAGE_LIMITS.fileBytes, tooLarge);
          packages.set(address.hash, await openDocx(bytes).catch(() => null));
        }
        found = packages.get(address.hash)?.images.get(address.name);
      } else {
        const { entry, bytes } = await drive.readWhole(actor, address.hash, 'files.view', IMAGE_LIMITS.bytes, tooLarge);
        if (entry.mime) found = { bytes, mime: entry.mime };
      }
    } catch {
      // An image the caller may not see, or that is gone, is left out like a foreign address.
      continue;
    }
    const type = found ? typeOf(found.mime) : null;
    if (!found || !type || found.bytes.length > budget) continue;
    budget -= found.bytes.length;
    const size = await dimensions(found.bytes, run.width, run.height);
    if (!size) continue;
    resolved.set(run.address, { bytes: found.bytes, type, ...size });
  }
  return resolved;
}

/** The size the content asks for, else the image's own, no wider than the page allows. */
async function dimensions(bytes: Buffer, width?: number | null, height?: number | null): Promise<{ width: number; height: number } | null> {
  let w = width ?? 0;
  let h = height ?? 0;
  if (!w || !h) {
    const meta = await sharp(bytes)
      .metadata()
      .catch(() => null);
    if (!meta?.width || !meta.height) return null;
    w = meta.width;
    h = meta.height;
  }
  if (w > IMAGE_LIMITS.maxWidth) {
    h = Math.max(1, Math.round((h * IMAGE_LIMITS.maxWidth) / w));
    w = IMAGE_LIMITS.maxWidth;
  }
  return { width: w, height: h };
}
