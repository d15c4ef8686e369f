import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../support/client.js';
import { pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import type { CreatedUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { drawing, docxWithBody } from './fixtures.js';

interface TextRun {
  type: 'text';
  text: string;
  fontAttributes: Record<string, unknown>;
  link?: string | null;
}
type Run = TextRun | { type: 'image'; address: string; width?: number; height?: number };
interface Section {
  kind: string;
  runs: Run[];
  items?: { runs: Run[] }[];
}

const texts = (runs: Run[]) => runs.map((r) => (r.type === 'text' ? r.text : '')).join('');

/**
 * Issue 30 finding 9: whatever a .docx within the package limits holds, read
 * answers it (never 500) and a save of what was read is accepted. Word writes
 * all of these; the model's bounds must not be tighter than what a file can
 * legally carry.
 */
describe('documents: files at and beyond the editor’s everyday sizes', () => {
  let t: TestApp;
  let owner: { user: CreatedUser; client: TestClient };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const readBack = async (name: string, content: Buffer) => {
    const entry = await uploadFile(t.app, owner.user, { name, content });
    const res = await owner.client.post('/api/v1/file-entries/read', { id: entry.hash });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const { data, version } = res.json() as { data: Section[]; version: string };
    // What was read is saved back as it is, and reads the same again.
    const save = await owner.client.post('/api/v1/file-entries/save', { id: entry.hash, version, content: data });
    expect(save.statusCode, save.body.slice(0, 500)).toBe(200);
    const again = await owner.client.post('/api/v1/file-entries/read', { id: entry.hash });
    expect(again.statusCode).toBe(200);
    return { data, again: (again.json() as { data: Section[] }).data };
  };

  it('reads and saves one text run of 250,000 characters', async () => {
    const long = 'All work and no play. '.repeat(12_000).slice(0, 250_000);
    const { data, again } = await readBack('long-run.docx', await docxWithBody(`<w:p><w:r><w:t xml:space="preserve">${long}</w:t></w:r></w:p>`));
    expect(data).toHaveLength(1);
    expect(texts(data[0]!.runs)).toBe(long);
    expect(texts(again[0]!.runs)).toBe(long);
  });

  it('reads and saves a paragraph of 12,000 differently formatted runs', async () => {
    const alternating = Array.from({ length: 6_000 }, () => '<w:r><w:rPr><w:b/></w:rPr><w:t>a</w:t></w:r><w:r><w:t>b</w:t></w:r>').join('');
    const wide = await readBack('many-runs.docx', await docxWithBody(`<w:p>${alternating}</w:p>`));
    expect(wide.data[0]!.runs).toHaveLength(12_000);
    expect(wide.again[0]!.runs).toHaveLength(12_000);
  });

  it('reads and saves 50,001 paragraphs', async () => {
    const tall = await readBack('many-paragraphs.docx', await docxWithBody(`${'<w:p/>'.repeat(50_000)}<w:p><w:r><w:t>last</w:t></w:r></w:p>`));
    expect(tall.data).toHaveLength(50_001);
    expect(texts(tall.again[50_000]!.runs)).toBe('last');
  });

  it('reads the largest type Word offers, a long font name and link, and huge and tiny picture extents without failing', async () => {
    const family = 'F'.repeat(300);
    const href = `https://example.com/${'p'.repeat(3000)}`;
    const body = [
      `<w:p><w:r><w:rPr><w:rFonts w:ascii="${family}"/><w:sz w:val="3276"/></w:rPr><w:t>Huge</w:t></w:r>`,
      `<w:hyperlink r:id="rId1"><w:r><w:t>far</w:t></w:r></w:hyperlink><w:hyperlink r:id="rId2"><w:r><w:t>near</w:t></w:r></w:hyperlink>`,
      `<w:r><w:rPr><w:sz w:val="0.5"/></w:rPr><w:t>tiny</w:t></w:r></w:p>`,
      `<w:p>${drawing(1, 20_000 * 9525, 10_000 * 9525)}${drawing(1, '1e400', 9525)}${drawing(1, 64 * 9525, 48 * 9525)}</w:p>`,
    ].join('');
    const { data, again } = await readBack(
      'extremes.docx',
      await docxWithBody(body, { links: [href, 'https://example.com/near'], images: [await pngBytes(64, 48)] }),
    );
    const runs = data[0]!.runs as TextRun[];
    expect(texts(runs)).toBe('Hugefarneartiny');
    expect(runs[0]!.fontAttributes).toEqual({ fontSize: 2184, fontFamily: 'F'.repeat(100) });
    // A link longer than the model keeps its text and loses the link; a usual one stays.
    expect(runs.find((r) => r.text === 'far')!.link ?? null).toBeNull();
    expect(runs.find((r) => r.text === 'near')!.link).toBe('https://example.com/near');
    expect(runs.find((r) => r.text === 'tiny')!.fontAttributes.fontSize).toBe(1);
    const pictures = data[1]!.runs.map((r) => (r.type === 'image' ? [r.width ?? null, r.height ?? null] : null));
    expect(pictures).toEqual([
      [10_000, 5_000],
      [null, null],
      [64, 48],
    ]);
    expect(again[1]!.runs).toHaveLength(3);
  });
});
