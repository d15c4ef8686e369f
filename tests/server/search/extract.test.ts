import { beforeAll, describe, expect, it } from 'vitest';
import { capText, contentKind, EXTRACT_LIMITS, extractText } from '../../../server/modules/search/extract.js';
import { fold, indexedWords, INDEX_BUDGET_BYTES, queryWords, snippet, words } from '../../../server/modules/search/fold.js';
import { htmlToDocx } from '../documents/libreoffice.js';
import { docxBomb, pdfOf } from './fixtures.js';

describe('folding (one meaning of a word for index, query and snippet)', () => {
  it('folds case, diacritics and the four Turkish i’s to one letter', () => {
    expect(fold('İSTANBUL')).toBe('istanbul');
    expect(fold('ILIK')).toBe(fold('ılık'));
    expect(fold('Işık İçin')).toBe('isik icin');
    expect(words('Naïve CAFÉ, résumé-2026!')).toEqual(['naive', 'cafe', 'resume', '2026']);
    expect(queryWords('ılık  ILIK istanbul')).toEqual(['ilik', 'istanbul']);
  });

  it('indexes each distinct word once, within the budget PostgreSQL’s tsvector allows', () => {
    expect(indexedWords('the cat and THE hat')).toBe('the cat and hat');
    const many = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    const indexed = indexedWords(many);
    expect(Buffer.byteLength(indexed)).toBeLessThan(INDEX_BUDGET_BYTES);
    expect(indexed.split(' ').length).toBeLessThan(200_000);
    expect(words(`short ${'a'.repeat(65)} kept`)).toEqual(['short', 'kept']);
  });

  it('answers a snippet as plain segments with the matched words flagged, never markup', () => {
    const text = `${'lorem ipsum '.repeat(20)}Our RETENTION policy keeps <b>mail</b> for a year. ${'dolor sit '.repeat(20)}`;
    const segments = snippet(text, queryWords('retent'))!;
    expect(segments.filter((s) => s.match).map((s) => s.text)).toEqual(['RETENTION']);
    expect(segments[0]!.text.startsWith('…')).toBe(true);
    expect(segments.at(-1)!.text.endsWith('…')).toBe(true);
    expect(segments.map((s) => s.text).join('')).toContain('<b>mail</b>');
    expect(snippet('İSTANBUL ve ILIK hava', queryWords('istanbul ılık'))).toEqual([
      { text: 'İSTANBUL', match: true },
      { text: ' ve ', match: false },
      { text: 'ILIK', match: true },
      { text: ' hava', match: false },
    ]);
    expect(snippet('nothing here', queryWords('absent'))).toBeNull();
  });
});

describe('extraction of each kind, within limits', () => {
  let docx: Buffer;
  beforeAll(async () => {
    docx = await htmlToDocx('<html><body><h1>Archive rules</h1><p>Our retention policy keeps mail for one year.</p><p>İSTANBUL ofisi ILIK.</p></body></html>');
  }, 180_000);

  it('chooses the extractor from the sniffed type', () => {
    expect(contentKind('text/plain', 'txt')).toBe('text');
    expect(contentKind('text/markdown', 'md')).toBe('text');
    expect(contentKind('text/javascript', 'js')).toBe('text');
    expect(contentKind('application/json', 'json')).toBe('text');
    expect(contentKind('application/pdf', 'pdf')).toBe('pdf');
    expect(contentKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx')).toBe('docx');
    expect(contentKind('image/png', 'png')).toBeNull();
    expect(contentKind('application/zip', 'zip')).toBeNull();
  });

  it('reads text, Markdown and code as they are', async () => {
    expect(await extractText('text', Buffer.from('# Notes\n\nThe *retention* policy'))).toEqual({
      status: 'ok',
      text: '# Notes\n\nThe *retention* policy',
      truncated: false,
    });
    expect((await extractText('text', Buffer.from('export const retention = 30; // days'))).text).toContain('retention');
    expect((await extractText('text', Buffer.from('  \n'))).status).toBe('empty');
    expect((await extractText('text', Buffer.from([0x41, 0x00, 0x42]))).status).toBe('failed');
  });

  it('reads a .docx made by LibreOffice: its paragraphs, diacritics and Turkish letters intact', async () => {
    const out = await extractText('docx', docx);
    expect(out.status).toBe('ok');
    expect(out.text).toContain('Archive rules');
    expect(out.text).toContain('Our retention policy keeps mail for one year.');
    expect(out.text).toContain('İSTANBUL ofisi ILIK.');
  });

  it('reads a PDF made by pdf-lib, every page', async () => {
    const out = await extractText('pdf', await pdfOf(['Quarterly retention report', 'Second page: café budget']));
    expect(out.status).toBe('ok');
    expect(out.text).toContain('Quarterly retention report');
    expect(out.text).toContain('café budget');
  });

  it('cuts text at 1 MiB (at a character boundary) and says so', async () => {
    const huge = Buffer.from('ğ'.repeat(EXTRACT_LIMITS.textBytes)); // 2 bytes each: twice the limit
    const out = await extractText('text', huge);
    expect(out.truncated).toBe(true);
    expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(EXTRACT_LIMITS.textBytes);
    expect(out.text.endsWith('ğ')).toBe(true);
    expect(capText('abc', 2)).toEqual({ text: 'ab', truncated: true });
    // A text file read only in part (the job reads its first MiB) is marked cut too.
    expect((await extractText('text', Buffer.from('start of a long file'), true)).truncated).toBe(true);
  });

  it('refuses a zip bomb posing as a .docx before inflating it', async () => {
    const bomb = docxBomb(EXTRACT_LIMITS.docxXmlBytes + 1024);
    expect(bomb.length).toBeLessThan(100_000);
    const out = await extractText('docx', bomb);
    expect(out.status).toBe('too_large');
    expect(out.text).toBe('');
  });

  it('stops a PDF at its page limit and its time limit, and fails a broken one without throwing', async () => {
    const pdf = await pdfOf(['first page words', 'second page words', 'third page words']);
    const paged = await extractText('pdf', pdf, false, { ...EXTRACT_LIMITS, pdfPages: 2 });
    expect(paged.text).toContain('second page');
    expect(paged.text).not.toContain('third page');
    // No time at all: nothing read is "took too long", not an empty success.
    expect((await extractText('pdf', pdf, false, { ...EXTRACT_LIMITS, pdfMs: -1 })).status).toBe('too_large');
    expect((await extractText('pdf', Buffer.from('%PDF-1.7 this is not a pdf'))).status).toBe('failed');
    expect((await extractText('docx', Buffer.from('not a zip'))).status).toBe('failed');
  });
});
