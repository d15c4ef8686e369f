import { zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A PDF of one page per text, drawn with pdf-lib's standard Helvetica (WinAnsi: Latin-1 letters only). */
export async function pdfOf(pages: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) doc.addPage().drawText(text, { x: 50, y: 700, font, size: 12 });
  return Buffer.from(await doc.save());
}

/** A .docx-shaped zip whose document.xml inflates to `bytes` of spaces (a few KB on disk). */
export function docxBomb(bytes: number): Buffer {
  const xml = new Uint8Array(bytes).fill(0x20);
  return Buffer.from(zipSync({ '[Content_Types].xml': new TextEncoder().encode('<Types/>'), 'word/document.xml': xml }, { level: 9 }));
}
