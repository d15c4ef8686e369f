import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { foldName } from '../../../server/db/name-fold.js';
import { DIALECT } from '../support/test-app.js';

/**
 * A broad name search on SQLite tests each walked row's name in JavaScript
 * (db/name-fold.ts) where other searches ask the FTS5 trigram index: both
 * must fold every character alike, or the same query would find other
 * entries by the way it is read. SQLite's own tokenizer is the reference,
 * over all of Unicode (the one copy of better-sqlite3 the server runs).
 */
describe.skipIf(DIALECT !== 'sqlite')('name folding as the trigram index folds', () => {
  it('folds every character as FTS5 does', () => {
    const db = new SqliteDatabase(':memory:');
    db.exec(`create virtual table probe using fts5(name, tokenize='trigram'); create virtual table probe_terms using fts5vocab(probe, 'instance')`);
    const insert = db.prepare('insert into probe(rowid, name) values (?, ?)');
    const read = db.prepare('select term, offset from probe_terms where doc = ?');
    const differing: string[] = [];
    // NUL ends a string for SQLite and no name holds one (nor any control character); surrogates come in pairs.
    const codes = Array.from({ length: 0x110000 }, (_, code) => code).filter((code) => code > 0 && (code < 0xd800 || code > 0xdfff));
    for (let start = 0, doc = 1; start < codes.length; start += 20_000, doc += 1) {
      const chunk = codes.slice(start, start + 20_000);
      db.transaction(() => {
        insert.run(doc, chunk.map((code) => String.fromCodePoint(code).repeat(3)).join(''));
        for (const { term, offset } of read.all(doc) as { term: string; offset: number }[]) {
          if (offset % 3 !== 0) continue;
          const char = String.fromCodePoint(chunk[offset / 3]!);
          if (term !== foldName(char).repeat(3)) differing.push(`U+${chunk[offset / 3]!.toString(16)}: ${term} vs ${foldName(char)}`);
        }
        db.prepare('delete from probe').run();
      })();
    }
    db.close();
    expect(differing).toEqual([]);
    // What the probe found is not JavaScript's lower case (the reason for the table).
    expect(['ſ', 'ς', 'ϐ', 'K', 'İ', 'ẞ', 'Ꭰ', '\uffff'].map(foldName)).toEqual(['s', 'σ', 'β', 'k', 'İ', 'ß', 'Ꭰ', '\ufffd']);
  }, 120_000);
});
