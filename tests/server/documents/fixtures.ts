import sharp from 'sharp';
import { ZipFile } from 'yazl';

/** A document with everything the editor keeps: headings, run formatting, nested lists, a link and an image. */
export async function richHtml(): Promise<string> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 20, b: 20 } } })
    .png()
    .toBuffer();
  return `<html><body>
<h1>Quarterly report</h1>
<h2>Summary</h2>
<p>Plain <b>bold</b> <i>italic</i> <u>underlined</u> <span style="color:#ff0000">red</span> <span style="font-size:18pt">large</span> <a href="https://example.com/report">the source</a> <a href="javascript:alert(1)">not a link</a></p>
<ul><li>Apples<ul><li>Green apples</li></ul></li><li>Pears</li></ul>
<ol><li>First step</li><li>Second step</li></ol>
<p>Chart: <img src="data:image/png;base64,${png.toString('base64')}" width="40" height="30"></p>
</body></html>`;
}

/** A zip whose one part inflates to far more than any limit allows (a zip bomb in miniature). */
export function zipBomb(): Promise<Buffer> {
  return zipOf([
    ['[Content_Types].xml', Buffer.from('<Types/>')],
    ['word/document.xml', Buffer.alloc(60 * 1024 * 1024, 0x20)],
  ]);
}

/** A package with a document.xml that is deeply nested XML. */
export function deepXml(): Promise<Buffer> {
  const depth = 5000;
  return zipOf([
    ['[Content_Types].xml', Buffer.from('<Types/>')],
    ['word/document.xml', Buffer.from(`${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`)],
  ]);
}

/** A package whose document.xml has more elements than any document we accept (huge XML). */
export function wideXml(): Promise<Buffer> {
  return zipOf([
    ['[Content_Types].xml', Buffer.from('<Types/>')],
    ['word/document.xml', Buffer.from(`<w:document><w:body>${'<w:p/>'.repeat(600_000)}</w:body></w:document>`)],
  ]);
}

/** A package whose document.xml declares entities (the billion laughs). */
export function entityXml(): Promise<Buffer> {
  const xml = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><w:document><w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>`;
  return zipOf([
    ['[Content_Types].xml', Buffer.from('<Types/>')],
    ['word/document.xml', Buffer.from(xml)],
  ]);
}

export function zipOf(files: [string, Buffer][]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of files) zip.addBuffer(data, name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A minimal .docx whose body is `bodyXml` (w: paragraphs). External links get
 * relationship ids rId1, rId2, … and png images rImg1, rImg2, … (see `drawing`).
 */
export function docxWithBody(bodyXml: string, { links = [], images = [] }: { links?: string[]; images?: Buffer[] } = {}): Promise<Buffer> {
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const rels = [
    ...links.map((target, i) => `<Relationship Id="rId${i + 1}" Type="${R}/hyperlink" Target="${escape(target)}" TargetMode="External"/>`),
    ...images.map((_, i) => `<Relationship Id="rImg${i + 1}" Type="${R}/image" Target="media/image${i + 1}.png"/>`),
  ].join('');
  return zipOf([
    [
      '[Content_Types].xml',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    ],
    [
      'word/document.xml',
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:wp="${WP}" xmlns:a="${A}" xmlns:pic="${PIC}"><w:body>${bodyXml}</w:body></w:document>`,
      ),
    ],
    [
      'word/_rels/document.xml.rels',
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
      ),
    ],
    ...images.map((bytes, i): [string, Buffer] => [`word/media/image${i + 1}.png`, bytes]),
  ]);
}

const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const PIC = 'http://schemas.openxmlformats.org/drawingml/2006/picture';

/** An inline picture run showing image `n` of docxWithBody at an extent in EMU (9525 to the pixel). */
export const drawing = (n: number, cx: number | string, cy: number | string) =>
  `<w:r><w:drawing><wp:inline><wp:extent cx="${cx}" cy="${cy}"/><a:graphic><a:graphicData uri="${PIC}"><pic:pic><pic:blipFill><a:blip r:embed="rImg${n}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
