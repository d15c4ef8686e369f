import { PackageError, readPackage } from '../documents/package.js';

/**
 * Text out of a file's bytes for content search, within fixed bounds: how
 * many bytes are read, how much text is kept, how long a PDF may take, and
 * (for .docx) how far its zip may inflate. Anything outside them is refused
 * with a status, never a crash or a stuck job.
 */
export const EXTRACT_LIMITS = {
  /** Text kept per file, UTF-8 bytes; the rest is cut (and the row says so). */
  textBytes: 1024 * 1024,
  /** Plain text and code: only this much is read (the text limit plus room for multi-byte characters). */
  plainReadBytes: 1024 * 1024 + 4,
  /** A .docx or PDF larger than this is not read at all. */
  documentBytes: 25 * 1024 * 1024,
  /** word/document.xml inflated: past this the package is refused (a zip bomb). */
  docxXmlBytes: 16 * 1024 * 1024,
  pdfPages: 500,
  /** Wall time for one PDF, checked between pages. */
  pdfMs: 10_000,
};

/** Bump when what an extractor produces changes, so stored text is read again. */
export const EXTRACTOR_VERSION = 1;

export type ContentKind = 'text' | 'docx' | 'pdf';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const TEXT_MIMES = new Set(['application/json', 'application/xml', 'application/sql', 'application/javascript', 'application/x-sh', 'application/rtf']);

/** Which extractor reads a file of this type, or null when its content is not searched (images, archives…). */
export function contentKind(mime: string | null, extension: string | null): ContentKind | null {
  if (!mime) return null;
  if (mime === 'application/pdf') return 'pdf';
  if (mime === DOCX_MIME || (extension === 'docx' && mime === 'application/zip')) return 'docx';
  if (mime.startsWith('text/') || TEXT_MIMES.has(mime)) return 'text';
  return null;
}

/** How many bytes of a file of this kind are read (text: a prefix; documents: whole, up to their limit). */
export function readLimit(kind: ContentKind): number {
  return kind === 'text' ? EXTRACT_LIMITS.plainReadBytes : EXTRACT_LIMITS.documentBytes;
}

export type Extracted =
  { status: 'ok' | 'empty'; text: string; truncated: boolean } | { status: 'too_large' | 'failed'; text: ''; truncated: false; reason: string };

export class ExtractLimit extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ExtractLimit';
  }
}

/** `text` cut to the byte limit at a character boundary. */
export function capText(text: string, limit = EXTRACT_LIMITS.textBytes): { text: string; truncated: boolean } {
  // NULs go: neither dialect stores them in text.
  const normalised = text.replaceAll('\u0000', '');
  if (Buffer.byteLength(normalised) <= limit) return { text: normalised, truncated: false };
  // A character cut in half decodes to U+FFFD at the end: drop it.
  const cut = Buffer.from(normalised)
    .subarray(0, limit)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return { text: cut, truncated: true };
}

/** The text of `bytes` read as `kind`. `truncatedInput`: the bytes are a prefix of a longer text file. */
export async function extractText(kind: ContentKind, bytes: Buffer, truncatedInput = false, limits = EXTRACT_LIMITS): Promise<Extracted> {
  try {
    const raw = kind === 'text' ? plainText(bytes) : kind === 'docx' ? await docxText(bytes, limits) : await pdfText(bytes, limits);
    const capped = capText(raw, limits.textBytes);
    const truncated = capped.truncated || truncatedInput;
    return { status: capped.text.trim() ? 'ok' : 'empty', text: capped.text, truncated };
  } catch (error) {
    if (error instanceof ExtractLimit || (error instanceof PackageError && error.reason === 'too-large')) {
      return { status: 'too_large', text: '', truncated: false, reason: error.message };
    }
    return { status: 'failed', text: '', truncated: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function plainText(bytes: Buffer): string {
  // A binary file that claimed to be text: nothing to index.
  if (bytes.subarray(0, 8192).includes(0)) throw new Error('binary content');
  return new TextDecoder('utf-8').decode(bytes).replace(/\uFFFD$/, '');
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/** The body of a .docx: its runs' text, tabs and breaks, one line per paragraph. */
async function docxText(bytes: Buffer, limits: typeof EXTRACT_LIMITS): Promise<string> {
  if (bytes.length > limits.documentBytes) throw new ExtractLimit('document too large');
  const parts = await readPackage(bytes, (name) => name === 'word/document.xml', {
    fileBytes: limits.documentBytes,
    entries: 2000,
    partBytes: limits.docxXmlBytes,
    totalBytes: limits.docxXmlBytes,
  });
  const xml = parts.get('word/document.xml');
  if (!xml) throw new Error('no word/document.xml');
  const source = xml.toString('utf8');
  let out = '';
  const budget = limits.textBytes * 2;
  for (const match of source.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<\/w:p>|<w:tab\/>|<w:br(?:\s[^>]*)?\/>/g)) {
    if (match[1] !== undefined) out += decodeXml(match[1]);
    else out += match[0] === '<w:tab/>' ? '\t' : '\n';
    if (out.length > budget) break;
  }
  return out;
}

/** A PDF's text page by page with unpdf (pdf.js, pure JavaScript), within the page, text and time limits. */
async function pdfText(bytes: Buffer, limits: typeof EXTRACT_LIMITS): Promise<string> {
  if (bytes.length > limits.documentBytes) throw new ExtractLimit('document too large');
  const { getDocumentProxy } = await import('unpdf');
  const deadline = Date.now() + limits.pdfMs;
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
  try {
    const pages = Math.min(pdf.numPages, limits.pdfPages);
    const lines: string[] = [];
    let size = 0;
    for (let number = 1; number <= pages; number++) {
      if (Date.now() > deadline) {
        if (lines.length === 0) throw new ExtractLimit('took too long');
        break;
      }
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      page.cleanup();
      lines.push(text);
      size += text.length;
      if (size > limits.textBytes) break;
    }
    return lines.join('\n');
  } finally {
    await pdf.destroy();
  }
}
