import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  Paragraph,
  TextRun,
  type ILevelsOptions,
  type ParagraphChild,
} from 'docx';
import { allowedLink, MAX_LIST_DEPTH, type ListItem, type Run, type Section, type TextRun as ModelTextRun } from './model.js';

/**
 * The §3 sections model → a .docx, written by the `docx` package (valid
 * OOXML that Word and LibreOffice open). Images arrive already resolved to
 * bytes (see images.ts): the writer never fetches anything.
 */
export interface ResolvedImage {
  bytes: Buffer;
  type: 'png' | 'jpg';
  width: number;
  height: number;
}

/** Images by the address the content gives them; an address missing here is left out. */
export type ImageLookup = (address: string) => ResolvedImage | undefined;

const ORDERED = 'ordered';
const BULLET = 'bullet';
const BULLETS = ['\u2022', '\u25e6', '\u25aa'];
const ORDERED_FORMATS = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN];

const levels = (ordered: boolean): ILevelsOptions[] =>
  Array.from({ length: MAX_LIST_DEPTH }, (_, level) => ({
    level,
    format: ordered ? ORDERED_FORMATS[level % 3] : LevelFormat.BULLET,
    text: ordered ? `%${level + 1}.` : BULLETS[level % 3],
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));

/** Pixels → half-points (the file's unit): 1 px = 0.75 pt. */
const halfPoints = (px: number) => Math.max(1, Math.round(px * 0.75 * 2));

function textRun(run: ModelTextRun): TextRun {
  const a = run.fontAttributes;
  return new TextRun({
    text: run.text,
    bold: a.bold || undefined,
    italics: a.italic || undefined,
    underline: a.underline ? {} : undefined,
    color: a.color ? a.color.slice(1).toUpperCase() : undefined,
    size: a.fontSize ? halfPoints(a.fontSize) : undefined,
    font: a.fontFamily ?? undefined,
    style: run.link ? 'Hyperlink' : undefined,
  });
}

function children(runs: Run[], images: ImageLookup): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  for (const run of runs) {
    if (run.type === 'image') {
      const image = images(run.address);
      if (!image) continue;
      out.push(new ImageRun({ type: image.type, data: image.bytes, transformation: { width: image.width, height: image.height } }));
      continue;
    }
    // A tab inside the text stays a tab in the file.
    const pieces = run.text.split('\t');
    const link = allowedLink(run.link);
    const made = pieces.flatMap((piece, index) => {
      const parts: TextRun[] = [];
      if (index > 0) parts.push(new TextRun({ children: ['\t'] }));
      if (piece) parts.push(textRun({ ...run, text: piece }));
      return parts;
    });
    if (link) out.push(new ExternalHyperlink({ link, children: made }));
    else out.push(...made);
  }
  return out;
}

function listParagraphs(items: ListItem[], ordered: boolean, instance: number, level: number, images: ImageLookup, out: Paragraph[]): void {
  for (const item of items) {
    out.push(
      new Paragraph({
        children: children(item.runs, images),
        numbering: { reference: ordered ? ORDERED : BULLET, level: Math.min(level, MAX_LIST_DEPTH - 1), instance },
      }),
    );
    if (item.subItems?.length) listParagraphs(item.subItems, ordered, instance, level + 1, images, out);
  }
}

export async function writeDocx(sections: Section[], images: ImageLookup): Promise<Buffer> {
  const paragraphs: Paragraph[] = [];
  let instance = 0;
  for (const section of sections) {
    if (section.kind === 'list') {
      instance += 1;
      listParagraphs(section.items ?? [], section.ordered ?? false, instance, 0, images, paragraphs);
      continue;
    }
    const runs = children(section.runs, images);
    switch (section.kind) {
      case 'heading1':
        paragraphs.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: runs }));
        break;
      case 'heading2':
        paragraphs.push(new Paragraph({ heading: HeadingLevel.HEADING_2, children: runs }));
        break;
      case 'blockquote':
        paragraphs.push(new Paragraph({ style: 'Quote', children: runs }));
        break;
      case 'code':
        paragraphs.push(new Paragraph({ style: 'Code', children: runs }));
        break;
      default:
        paragraphs.push(new Paragraph({ children: runs }));
    }
  }
  const document = new Document({
    creator: 'Drive',
    styles: {
      paragraphStyles: [
        {
          id: 'Quote',
          name: 'Quote',
          basedOn: 'Normal',
          paragraph: { indent: { left: 720 }, border: { left: { style: 'single', size: 12, color: 'CCCCCC', space: 8 } } },
        },
        { id: 'Code', name: 'Code', basedOn: 'Normal', run: { font: 'Courier New' }, paragraph: { spacing: { before: 0, after: 0 } } },
      ],
    },
    numbering: {
      config: [
        { reference: ORDERED, levels: levels(true) },
        { reference: BULLET, levels: levels(false) },
      ],
    },
    sections: [{ children: paragraphs.length ? paragraphs : [new Paragraph({})] }],
  });
  return Packer.toBuffer(document);
}
