/**
 * One meaning of "the same word" for the index, the query and the snippet, on
 * both dialects: case and diacritics ignored, and the Turkish i's folded
 * together (İ, I, ı and i are one letter), so "istanbul" finds "İSTANBUL" and
 * "ılık" finds "ILIK" whatever the locale of the database or the browser.
 * Folding happens here, in JavaScript, before SQLite or PostgreSQL see a word.
 */
export function fold(text: string): string {
  // İ first: lower-casing it gives "i" plus a combining dot that NFKD would leave behind as a mark anyway.
  return text.replace(/[İIı]/g, 'i').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A word: letters and digits (with their combining marks, so a decomposed "é" stays one word). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** Longer "words" (base64, minified code) are not indexed: nobody searches for them, and PostgreSQL refuses lexemes over 2 KB. */
export const MAX_WORD_LENGTH = 64;

/** The folded words of a text, in order, repeats kept. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    for (const word of fold(match[0]).match(WORD) ?? []) if (word.length <= MAX_WORD_LENGTH) out.push(word);
  }
  return out;
}

/**
 * PostgreSQL's tsvector holds at most 1 MB; each distinct word costs its
 * bytes plus a few for its entry and position. The index keeps a file's
 * distinct words up to this budget (both dialects the same list), which only
 * a file of hundreds of thousands of distinct words reaches.
 */
export const INDEX_BUDGET_BYTES = 700 * 1024;

/** What is indexed for a text: its distinct folded words, first seen first, within the budget. */
export function indexedWords(text: string): string {
  const seen = new Set<string>();
  let bytes = 0;
  for (const word of words(text)) {
    if (seen.has(word)) continue;
    const cost = Buffer.byteLength(word) + 8;
    if (bytes + cost > INDEX_BUDGET_BYTES) break;
    bytes += cost;
    seen.add(word);
  }
  return [...seen].join(' ');
}

/** The words of a query, folded, distinct; each is matched as a word prefix ("retent" finds "retention"). */
export function queryWords(query: string): string[] {
  return [...new Set(words(query))].slice(0, 16);
}

/** A run of a snippet; `match` when it is one of the searched words. */
export interface Segment {
  text: string;
  match: boolean;
}

const CONTEXT = 60;

/**
 * Where in `text` the query's words are: the first place a word of the query
 * starts a word of the text, with about CONTEXT characters either side cut at
 * word boundaries, every matching word in that window marked. Plain text
 * segments, never markup: the client renders them. Null when no word matches.
 */
export function snippet(text: string, terms: string[]): Segment[] | null {
  if (terms.length === 0) return null;
  const matches = (word: string) => {
    const folded = fold(word);
    return terms.some((term) => folded.startsWith(term));
  };
  let first: RegExpMatchArray | null = null;
  for (const match of text.matchAll(WORD)) {
    if (matches(match[0])) {
      first = match;
      break;
    }
  }
  if (!first) return null;
  let start = Math.max(0, first.index! - CONTEXT);
  let end = Math.min(text.length, first.index! + first[0].length + CONTEXT);
  // Widen to whole words at both edges, then do not split a surrogate pair.
  while (start > 0 && /[\p{L}\p{N}\p{M}]/u.test(text[start - 1]!) && first.index! - start < CONTEXT + 20) start--;
  while (end < text.length && /[\p{L}\p{N}\p{M}]/u.test(text[end]!) && end - first.index! < first[0].length + CONTEXT + 20) end++;
  if (start > 0 && /[\uDC00-\uDFFF]/.test(text[start]!)) start--;
  if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end]!)) end++;
  const window = text.slice(start, end).replace(/\s+/g, ' ');
  const segments: Segment[] = [];
  const push = (part: string, match: boolean) => {
    if (!part) return;
    const last = segments.at(-1);
    if (last && last.match === match && !match) last.text += part;
    else segments.push({ text: part, match });
  };
  if (start > 0) push('…', false);
  let at = 0;
  for (const match of window.matchAll(WORD)) {
    if (!matches(match[0])) continue;
    push(window.slice(at, match.index), false);
    push(match[0], true);
    at = match.index! + match[0].length;
  }
  push(window.slice(at), false);
  if (end < text.length) push('…', false);
  return segments;
}
