import { createHash } from 'node:crypto';
import path from 'node:path/posix';
import { nestByLevel } from '../../../common/nested-list.js';
import { allowedLink, MAX_LIST_DEPTH, MODEL_LIMITS, type FontAttributes, type Run, type Section, type SectionKind } from './model.js';
import { PackageError, readPackage, type Parts } from './package.js';
import { child, childVal, descendants, elements, parseXml, type XmlElement } from './xml.js';

/**
 * A .docx → the §3 sections model. Read from `word/document.xml` with its
 * styles, numbering and relationships (not through an HTML converter, which
 * drops fonts, sizes and colours): headings and quotes from paragraph styles,
 * lists from numbering (nesting by level), run formatting, external links of
 * the allowed protocols, and png/jpeg images, which keep an address in the
 * entry's own package (see imageAddress).
 */
export const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

/** The parts a read needs; media are read too, for their images. */
const wanted = (name: string) =>
  name === 'word/document.xml' ||
  name === 'word/styles.xml' ||
  name === 'word/numbering.xml' ||
  name === 'word/_rels/document.xml.rels' ||
  name === '[Content_Types].xml' ||
  name.startsWith('word/media/');

/** An image's name in the package's address space: its digest, so it is the same across saves of the same bytes. */
export const mediaName = (bytes: Buffer, extension: string) => `${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${extension}`;

export interface DocumentPackage {
  parts: Parts;
  /** Images by mediaName. */
  images: Map<string, { bytes: Buffer; mime: string }>;
}

export async function openDocx(bytes: Buffer): Promise<DocumentPackage> {
  const parts = await readPackage(bytes, wanted);
  if (!parts.has('word/document.xml') || !parts.has('[Content_Types].xml')) throw new PackageError('missing-part');
  const images = new Map<string, { bytes: Buffer; mime: string }>();
  for (const [name, data] of parts) {
    const extension = path.extname(name).slice(1).toLowerCase();
    if (name.startsWith('word/media/') && IMAGE_TYPES[extension]) images.set(mediaName(data, extension), { bytes: data, mime: IMAGE_TYPES[extension]! });
  }
  return { parts, images };
}

interface Context {
  styles: Map<string, { kind: SectionKind | null; numbered: boolean }>;
  /** numId → ordered per level. */
  numbering: Map<string, boolean[]>;
  rels: Map<string, { target: string; external: boolean }>;
  images: DocumentPackage['images'];
  parts: Parts;
  imageAddress: (name: string) => string;
}

const xmlOf = (parts: Parts, name: string): XmlElement | undefined => {
  const data = parts.get(name);
  return data ? parseXml(data.toString('utf8')) : undefined;
};

function readStyles(root: XmlElement | undefined): Context['styles'] {
  const styles: Context['styles'] = new Map();
  for (const style of root ? elements(root, 'w:style') : []) {
    const id = style.attrs['w:styleId'];
    if (!id) continue;
    const name = (childVal(style, 'w:name') ?? id).toLowerCase().replace(/\s+/g, '');
    const outline = childVal(child(style, 'w:pPr'), 'w:outlineLvl');
    let kind: SectionKind | null = null;
    if (name === 'heading1' || name === 'title' || outline === '0') kind = 'heading1';
    else if (/^heading[2-9]$/.test(name) || name === 'subtitle' || (outline !== undefined && Number(outline) >= 1 && Number(outline) <= 8)) kind = 'heading2';
    else if (name === 'quote' || name === 'quotations' || name === 'intensequote' || name === 'blockquote') kind = 'blockquote';
    else if (name === 'code' || name === 'preformattedtext' || name === 'htmlpreformatted' || name === 'sourcetext') kind = 'code';
    styles.set(id, { kind, numbered: child(child(style, 'w:pPr'), 'w:numPr') !== undefined });
  }
  return styles;
}

function readNumbering(root: XmlElement | undefined): Context['numbering'] {
  const abstract = new Map<string, boolean[]>();
  const numbering: Context['numbering'] = new Map();
  if (!root) return numbering;
  for (const definition of elements(root, 'w:abstractNum')) {
    const levels: boolean[] = [];
    for (const level of elements(definition, 'w:lvl')) {
      const format = childVal(level, 'w:numFmt') ?? 'bullet';
      levels[Number(level.attrs['w:ilvl'] ?? 0)] = format !== 'bullet' && format !== 'none';
    }
    abstract.set(definition.attrs['w:abstractNumId'] ?? '', levels);
  }
  for (const num of elements(root, 'w:num')) numbering.set(num.attrs['w:numId'] ?? '', abstract.get(childVal(num, 'w:abstractNumId') ?? '') ?? []);
  return numbering;
}

function readRels(root: XmlElement | undefined): Context['rels'] {
  const rels: Context['rels'] = new Map();
  for (const rel of root ? elements(root, 'Relationship') : []) {
    rels.set(rel.attrs.Id ?? '', { target: rel.attrs.Target ?? '', external: rel.attrs.TargetMode === 'External' });
  }
  return rels;
}

const on = (props: XmlElement | undefined, name: string): boolean | undefined => {
  const element = child(props, name);
  if (!element) return undefined;
  const value = element.attrs['w:val'];
  return value === undefined || !['0', 'false', 'off', 'none'].includes(value);
};

/** Run properties → fontAttributes; sizes are half-points in the file and pixels in the model. */
function fontAttributes(rPr: XmlElement | undefined): FontAttributes {
  const attributes: FontAttributes = {};
  if (!rPr) return attributes;
  const bold = on(rPr, 'w:b');
  const italic = on(rPr, 'w:i');
  const underline = on(rPr, 'w:u');
  if (bold) attributes.bold = true;
  if (italic) attributes.italic = true;
  if (underline) attributes.underline = true;
  const color = childVal(rPr, 'w:color');
  if (color && /^[0-9a-fA-F]{6}$/.test(color)) attributes.color = `#${color.toLowerCase()}`;
  const halfPoints = Number(childVal(rPr, 'w:sz'));
  if (Number.isFinite(halfPoints) && halfPoints > 0)
    attributes.fontSize = Math.min(Math.max(Math.round(((halfPoints / 2) * 4) / 3), 1), MODEL_LIMITS.fontSizePx);
  const fonts = child(rPr, 'w:rFonts');
  const family = fonts?.attrs['w:ascii'] ?? fonts?.attrs['w:hAnsi'];
  if (family) attributes.fontFamily = family.slice(0, MODEL_LIMITS.fontFamilyChars);
  return attributes;
}

const EMU_PER_PX = 9525;

/** A paragraph's lines: a run of text, tabs and images; a break starts a new line. */
function readRuns(node: XmlElement, ctx: Context, link: string | null, lines: Run[][]): void {
  for (const element of elements(node)) {
    switch (element.name) {
      case 'w:r':
        readRun(element, ctx, link, lines);
        break;
      case 'w:hyperlink': {
        const rel = ctx.rels.get(element.attrs['r:id'] ?? '');
        readRuns(element, ctx, rel?.external ? allowedLink(rel.target) : null, lines);
        break;
      }
      // Tracked deletions are gone from the text; everything else that wraps runs is read through.
      case 'w:del':
      case 'w:pPr':
      case 'w:moveFrom':
        break;
      default:
        readRuns(element, ctx, link, lines);
    }
  }
}

function readRun(run: XmlElement, ctx: Context, link: string | null, lines: Run[][]): void {
  const attributes = fontAttributes(child(run, 'w:rPr'));
  const push = (item: Run) => lines.at(-1)!.push(item);
  const pushText = (text: string) => {
    const last = lines.at(-1)!.at(-1);
    if (last?.type === 'text' && (last.link ?? null) === link && JSON.stringify(last.fontAttributes) === JSON.stringify(attributes)) last.text += text;
    else push({ type: 'text', text, fontAttributes: { ...attributes }, ...(link ? { link } : {}) });
  };
  for (const element of elements(run)) {
    if (element.name === 'w:t') pushText(element.children.filter((c) => typeof c === 'string').join(''));
    else if (element.name === 'w:tab') pushText('\t');
    else if (element.name === 'w:br' || element.name === 'w:cr') lines.push([]);
    else if (element.name === 'w:drawing' || element.name === 'mc:AlternateContent' || element.name === 'w:pict') {
      for (const image of readImages(element, ctx)) push(image);
    }
  }
}

function readImages(node: XmlElement, ctx: Context): Run[] {
  // mc:AlternateContent carries one picture twice (Choice and Fallback): read the first branch that has one.
  const scope = node.name === 'mc:AlternateContent' ? (elements(node).find((branch) => descendants(branch, 'a:blip').length) ?? node) : node;
  const images: Run[] = [];
  for (const blip of descendants(scope, 'a:blip')) {
    const rel = ctx.rels.get(blip.attrs['r:embed'] ?? '');
    if (!rel || rel.external) continue;
    const partName = path.normalize(path.join('word', rel.target)).replace(/^\/+/, '');
    const data = ctx.parts.get(partName);
    const extension = path.extname(partName).slice(1).toLowerCase();
    if (!data || !IMAGE_TYPES[extension]) continue;
    const extent = descendants(scope, 'wp:extent')[0];
    const cx = Number(extent?.attrs.cx) / EMU_PER_PX;
    const cy = Number(extent?.attrs.cy) / EMU_PER_PX;
    // A picture wider or taller than the model allows keeps its shape, scaled down.
    const scale = Math.min(1, MODEL_LIMITS.imagePx / Math.max(cx, cy));
    const width = Math.round(cx * scale);
    const height = Math.round(cy * scale);
    images.push({
      type: 'image',
      address: ctx.imageAddress(mediaName(data, extension)),
      ...(width > 0 && height > 0 ? { width, height } : {}),
    });
  }
  return images;
}

interface Paragraph {
  kind: Exclude<SectionKind, 'list'>;
  list: { level: number; ordered: boolean; numId: string } | null;
  lines: Run[][];
}

function readParagraph(p: XmlElement, ctx: Context): Paragraph {
  const pPr = child(p, 'w:pPr');
  const styleId = childVal(pPr, 'w:pStyle');
  const style = styleId ? ctx.styles.get(styleId) : undefined;
  const numPr = child(pPr, 'w:numPr');
  const numId = childVal(numPr, 'w:numId');
  const level = Math.min(Number(childVal(numPr, 'w:ilvl') ?? 0) || 0, MAX_LIST_DEPTH - 1);
  const lines: Run[][] = [[]];
  readRuns(p, ctx, null, lines);
  const kind = style?.kind && style.kind !== 'list' ? style.kind : 'paragraph';
  const list = numId && numId !== '0' && ctx.numbering.has(numId) ? { level, ordered: ctx.numbering.get(numId)![level] ?? false, numId } : null;
  return { kind, list, lines };
}

/** Consecutive list paragraphs of one kind → one list section, nested by level. */
function listSection(paragraphs: Paragraph[]): Section {
  const items = nestByLevel(paragraphs.map((paragraph) => ({ runs: paragraph.lines.flat(), level: paragraph.list!.level })));
  return { kind: 'list', runs: [], ordered: paragraphs[0]!.list!.ordered, items };
}

/** The body's paragraphs in order, tables read cell by cell (the model has no tables). */
function bodyParagraphs(node: XmlElement, out: XmlElement[] = []): XmlElement[] {
  for (const element of elements(node)) {
    if (element.name === 'w:p') out.push(element);
    else if (
      element.name === 'w:tbl' ||
      element.name === 'w:tr' ||
      element.name === 'w:tc' ||
      element.name === 'w:sdt' ||
      element.name === 'w:sdtContent' ||
      element.name === 'w:customXml'
    ) {
      bodyParagraphs(element, out);
    }
  }
  return out;
}

export function readSections(doc: DocumentPackage, imageAddress: (name: string) => string): Section[] {
  const { parts } = doc;
  const ctx: Context = {
    styles: readStyles(xmlOf(parts, 'word/styles.xml')),
    numbering: readNumbering(xmlOf(parts, 'word/numbering.xml')),
    rels: readRels(xmlOf(parts, 'word/_rels/document.xml.rels')),
    images: doc.images,
    parts,
    imageAddress,
  };
  const document = xmlOf(parts, 'word/document.xml')!;
  const body = child(document, 'w:body');
  if (!body) throw new PackageError('missing-part');
  const sections: Section[] = [];
  let pendingList: Paragraph[] = [];
  const flushList = () => {
    if (pendingList.length) sections.push(listSection(pendingList));
    pendingList = [];
  };
  for (const p of bodyParagraphs(body)) {
    const paragraph = readParagraph(p, ctx);
    if (paragraph.list) {
      const first = pendingList[0]?.list;
      // A new list starts where the numbering or the kind (numbered or bulleted) of level 0 changes.
      if (first && (first.numId !== paragraph.list.numId || (paragraph.list.level === 0 && first.ordered !== paragraph.list.ordered))) flushList();
      pendingList.push(paragraph);
      continue;
    }
    flushList();
    for (const line of paragraph.lines) sections.push({ kind: paragraph.kind, runs: line });
  }
  flushList();
  return sections;
}
