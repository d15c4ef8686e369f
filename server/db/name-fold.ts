import SqliteDatabase, { type Database as SqliteConnection } from 'better-sqlite3';

/**
 * A name test that means exactly what the FTS5 trigram index means by "the
 * name contains this text" (`file_entries_search`, tokenize='trigram',
 * case_sensitive 0): each character folded as FTS5 folds it, then a
 * substring. It lets SQLite test a row's name in the row's own walk (a few
 * hundred rows for a broad query) instead of listing every match from the
 * index first (100k matches of "report" over 1M entries: ~30 ms).
 *
 * FTS5's folding is not JavaScript's toLowerCase (ſ → s, ϐ → β, ς → σ, while
 * İ, Cherokee and newer letters stay; U+FFFE/U+FFFF read as U+FFFD), so the
 * table is asked of SQLite's own tokenizer, once per process: every
 * character JavaScript calls cased, and those two, tripled in one document
 * whose trigrams the fts5vocab table lists. Every other character folds to
 * itself (checked over all of Unicode by tests/server/drive/name-fold.test.ts).
 */
export const NAME_CONTAINS = 'name_contains_folded';

let folds: Map<number, number> | null = null;

/** FTS5's case folding of every character that has one, from the SQLite this process runs. */
export function ftsFolds(): Map<number, number> {
  if (folds) return folds;
  const probed: number[] = [0xfffe, 0xffff];
  // No cased letter lies beyond the Supplementary Multilingual Plane (Adlam, at U+1E900, is the last).
  for (let code = 0x80; code < 0x20000; code += 1) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    if (char.toLowerCase() !== char || char.toUpperCase() !== char) probed.push(code);
  }
  const db = new SqliteDatabase(':memory:');
  try {
    db.exec(`create virtual table probe using fts5(name, tokenize='trigram'); create virtual table probe_terms using fts5vocab(probe, 'instance')`);
    db.prepare('insert into probe(rowid, name) values (1, ?)').run(probed.map((code) => String.fromCodePoint(code).repeat(3)).join(''));
    const found = new Map<number, number>();
    // The trigram at offset 3i is the i-th probed character, folded, three times.
    for (const { term, offset } of db.prepare('select term, offset from probe_terms').all() as { term: string; offset: number }[]) {
      if (offset % 3 !== 0) continue;
      const code = probed[offset / 3]!;
      const folded = term.codePointAt(0)!;
      if (folded !== code) found.set(code, folded);
    }
    folds = found;
    return found;
  } finally {
    db.close();
  }
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** `text` as the trigram index stores it: each character folded (ASCII letters to lower case). */
export function foldName(text: string): string {
  if (isAscii(text)) return text.toLowerCase();
  const table = ftsFolds();
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const folded = code < 0x80 ? undefined : table.get(code);
    out += code < 0x80 ? char.toLowerCase() : folded === undefined ? char : String.fromCodePoint(folded);
  }
  return out;
}

/** `name_contains_folded(name, folded)`: 1 when the folded name holds `folded` (the query, already folded by foldName). */
export function registerNameContains(db: SqliteConnection): void {
  db.function(NAME_CONTAINS, { deterministic: true }, (name: unknown, folded: unknown) =>
    typeof name === 'string' && typeof folded === 'string' && foldName(name).includes(folded) ? 1 : 0,
  );
}
