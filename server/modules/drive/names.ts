import { z } from 'zod';
import { ValidationError } from '../../lib/errors.js';

/** Names are kept as typed (NFC), up to this many bytes of UTF-8, like most file systems. */
export const MAX_NAME_BYTES = 255;

// C0 controls (NUL included), DEL and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Invisible format characters (Unicode Cf): bidirectional overrides make
 * `invoice\u202Efdp.exe` display as `invoiceexe.pdf`. The zero-width joiner
 * and non-joiner stay allowed: emoji sequences and Persian or Indic words need them.
 */
const FORMAT = /(?![\u200C\u200D])\p{Cf}/u;

/** NFC, surrounding white space removed: the stored form of a typed name. */
export const normaliseName = (name: string): string => name.normalize('NFC').trim();

/** Why a (normalised) name is refused, or null when it is fine. */
export function nameProblem(name: string): string | null {
  if (name === '') return 'The name field is required.';
  if (name.includes('/')) return 'The name may not contain a slash (/).';
  if (CONTROL.test(name)) return 'The name may not contain control characters.';
  if (FORMAT.test(name)) return 'The name may not contain invisible formatting characters.';
  if (name === '.' || name === '..') return 'The name may not be "." or "..".';
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return `The name may not be longer than ${MAX_NAME_BYTES} bytes.`;
  return null;
}

/** Normalises and checks a name for a service call; bad names are a 422 on `field`. */
export function validName(raw: string, field = 'name'): string {
  const name = normaliseName(raw);
  const problem = nameProblem(name);
  if (problem) throw ValidationError.field(field, problem);
  return name;
}

/**
 * A name as a client sent it (a WebDAV path): NFC, but spaces at either end
 * are kept — "report.pdf " is another file than "report.pdf" to the client
 * that wrote it, and a client that could not find it again would stop
 * syncing. A name of white space alone is still refused.
 */
export function validExactName(raw: string, field = 'name'): string {
  const name = raw.normalize('NFC');
  const problem = nameProblem(name.trim()) ?? nameProblem(name);
  if (problem) throw ValidationError.field(field, problem);
  return name;
}

/** The same rule as a zod schema, so routes answer 422 with the field error before any work. */
export const entryNameSchema = z
  .string()
  .max(4096)
  .transform(normaliseName)
  .superRefine((name, ctx) => {
    const problem = nameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** "Report.pdf" → ["Report", ".pdf"]; folders and dot-files keep their whole name as the stem. */
export function splitName(name: string, isFolder: boolean): [string, string] {
  if (isFolder) return [name, ''];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/**
 * The names a clash tries in turn: the name itself, then "name (n)" from the
 * first free n ("Report.pdf" → "Report (1).pdf", "Photos" → "Photos (1)").
 * A name that already ends in " (n)" counts on from there rather than growing
 * "Report (1) (1)".
 */
export function* nameCandidates(name: string, isFolder: boolean): Generator<string, never> {
  yield name;
  const [stem, extension] = splitName(name, isFolder);
  const numbered = /^(.*) \((\d+)\)$/.exec(stem);
  const base = numbered ? numbered[1]! : stem;
  for (let n = numbered ? Number(numbered[2]) + 1 : 1; ; n += 1) yield fitName(base, ` (${n})${extension}`);
}

/** The first free candidate in a set of taken names. */
export function freeName(name: string, isFolder: boolean, taken: Set<string>): string {
  for (const candidate of nameCandidates(name, isFolder)) if (!taken.has(candidate)) return candidate;
  throw new Error('unreachable');
}

/** How many candidates one look-up asks about once the name itself was taken. */
const PROBE_BATCH = 64;

/**
 * The first free candidate, asking `taken` which of a few candidates exist
 * (an index look-up), so finding a name costs the same in a folder of ten
 * entries as in one of a hundred thousand: the name alone first, then
 * batches of numbered ones.
 */
export async function firstFreeName(name: string, isFolder: boolean, taken: (candidates: string[]) => Promise<Set<string>>): Promise<string> {
  const candidates = nameCandidates(name, isFolder);
  for (let size = 1; ; size = PROBE_BATCH) {
    const batch = Array.from({ length: size }, () => candidates.next().value);
    const found = await taken(batch);
    const free = batch.find((candidate) => !found.has(candidate));
    if (free !== undefined) return free;
  }
}

/** Shortens `base` (by whole characters) so that base + suffix stays within the byte limit. */
function fitName(base: string, suffix: string): string {
  const chars = [...base];
  while (chars.length && Buffer.byteLength(chars.join('') + suffix, 'utf8') > MAX_NAME_BYTES) chars.pop();
  return chars.join('') + suffix;
}

/**
 * One path segment inside a zip: stored names are already free of "/" and
 * controls, but zip readers also treat "\" as a separator and a drive-like
 * "C:" as absolute, so those are replaced, and "." / ".." never survive.
 */
export function zipSegment(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\\/:\u0000-\u001f\u007f]/g, '_').trim();
  if (cleaned === '' || /^\.+$/.test(cleaned)) return '_';
  return cleaned;
}
