import { describe, expect, it } from 'vitest';
import { escapeLike, sparsePattern } from '../../../server/db/search.js';
import { contentDisposition, parseRange } from '../../../server/modules/drive/http.js';
import { extensionOf, inlinePreview, kindOf } from '../../../server/modules/drive/kinds.js';
import { freeName, nameProblem, zipSegment } from '../../../server/modules/drive/names.js';

describe('drive helpers', () => {
  it('numbers names after the first free " (n)", keeping the extension of files only', () => {
    expect(freeName('a.txt', false, new Set())).toBe('a.txt');
    expect(freeName('a.txt', false, new Set(['a.txt']))).toBe('a (1).txt');
    expect(freeName('a (1).txt', false, new Set(['a (1).txt', 'a (2).txt']))).toBe('a (3).txt');
    expect(freeName('v1.0', true, new Set(['v1.0']))).toBe('v1.0 (1)');
    expect(freeName('.env', false, new Set(['.env']))).toBe('.env (1)');
    const long = `${'é'.repeat(125)}.txt`;
    const numbered = freeName(long, false, new Set([long]));
    expect(Buffer.byteLength(numbered)).toBeLessThanOrEqual(255);
    expect(numbered.endsWith(' (1).txt')).toBe(true);
  });

  it('refuses what a name may not be', () => {
    expect(nameProblem('ok name.txt')).toBeNull();
    expect(nameProblem('a\u0085b')).toMatch(/control/);
    expect(nameProblem('x'.repeat(256))).toMatch(/255 bytes/);
  });

  it('makes zip path segments safe', () => {
    expect(zipSegment('..')).toBe('_');
    expect(zipSegment('C:evil')).toBe('C_evil');
    expect(zipSegment('a\\b')).toBe('a_b');
    expect(zipSegment('normal name.txt')).toBe('normal name.txt');
  });

  it('parses single byte ranges and ignores what it cannot honour', () => {
    expect(parseRange(undefined, 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-0', 10)).toEqual({ kind: 'partial', range: { start: 0, end: 0 } });
    expect(parseRange('bytes=5-100', 10)).toEqual({ kind: 'partial', range: { start: 5, end: 9 } });
    expect(parseRange('bytes=-100', 10)).toEqual({ kind: 'partial', range: { start: 0, end: 9 } });
    expect(parseRange('bytes=0-1,4-5', 10)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 10)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=10-', 10)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it('writes a Content-Disposition that no name can break out of', () => {
    expect(contentDisposition('attachment', 'a"b\r\nX-Evil: 1;.txt')).toBe(
      `attachment; filename="a_b__X-Evil: 1_.txt"; filename*=UTF-8''a%22b%0D%0AX-Evil%3A%201%3B.txt`,
    );
    expect(contentDisposition('inline', '日本.pdf')).toBe(`inline; filename="__.pdf"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pdf`);
  });

  it('classifies by content type, with .sql/.bak always in the SQL view', () => {
    expect(extensionOf('Archive.TAR.GZ')).toBe('gz');
    expect(extensionOf('.bashrc')).toBeNull();
    expect(kindOf('application/zip', 'bak')).toBe('sql');
    expect(kindOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx')).toBe('word');
    expect(kindOf('video/mp4', 'mp4')).toBe('video');
  });

  it('gives a preview only to images, video, audio, PDF and text, never to markup or other kinds', () => {
    expect(inlinePreview('application/pdf', 'pdf')).toEqual({ inline: true, contentType: 'application/pdf' });
    expect(inlinePreview('text/csv', 'spreadsheet')).toEqual({ inline: true, contentType: 'text/plain; charset=utf-8' });
    expect(inlinePreview('application/sql', 'sql')).toEqual({ inline: true, contentType: 'text/plain; charset=utf-8' });
    for (const [mime, kind] of [
      ['text/html', 'text'],
      ['image/svg+xml', 'image'],
      ['application/xml', 'text'],
      ['application/octet-stream', 'file'],
      ['application/octet-stream', 'sql'],
      ['application/zip', 'archive'],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'word'],
    ]) {
      expect(inlinePreview(mime!, kind!), mime).toBeNull();
    }
  });

  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it("keeps of a query the words' starts and ends for PostgreSQL's trigram index, a pattern every match also matches", () => {
    expect(sparsePattern('invoice 12')).toBe('%inv%ice% 12%');
    expect(sparsePattern('quarterly harbour')).toBe('%qua%rly% ha%our%');
    expect(sparsePattern('a b c')).toBe('% b% c%');
    expect(sparsePattern('50%_off')).toBe('%\\_of%');
    // Nothing left out, nothing to keep, or beyond ASCII (a piece could lower differently alone): the plain pattern.
    expect(sparsePattern('abc')).toBeNull();
    expect(sparsePattern('report')).toBeNull();
    expect(sparsePattern('ab')).toBeNull();
    expect(sparsePattern('ΟΔΟΣ ΑΘΗΝΑΣ')).toBeNull();
    // A name containing the query matches the pattern (LIKE read as a regular expression, case folded as ILIKE).
    const matches = (pattern: string, name: string) => {
      const body = pattern.replace(/\\(.)|(%)|(_)|([^\\%_])/g, (_, escaped: string, any: string, one: string, plain: string) =>
        any ? '.*' : one ? '.' : (escaped ?? plain).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      );
      return new RegExp(`^${body}$`, 'is').test(name);
    };
    const alphabet = 'aAbB1 ._-%\\xyz';
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const word = (length: number) => Array.from({ length }, () => alphabet[next() % alphabet.length]).join('');
    for (let i = 0; i < 2000; i += 1) {
      const query = word(3 + (next() % 10));
      const pattern = sparsePattern(query);
      if (pattern === null) continue;
      const name = `${word(next() % 5)}${query.toUpperCase()}${word(next() % 5)}`;
      expect(matches(pattern, name), `${query} → ${pattern} in ${name}`).toBe(true);
    }
  });
});
