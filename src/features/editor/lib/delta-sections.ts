import { nestByLevel } from '../../../../common/nested-list';
import type { DocumentContent, DocumentFontAttributes, DocumentListItem, DocumentRun, DocumentSection } from '../../../offline/documents/types';
import { allowedLink } from './links';

// Quill's Delta ↔ the §3 sections model: the one conversion between what the
// editor holds and what the server reads and saves. Quill keeps lists as flat
// lines (`list: ordered|bullet` with an `indent` for nesting); the model keeps
// a tree of items with subItems. Pure functions, so they are tested without
// an editor (tests/web/editor/delta-sections.test.ts).

export type Attributes = Record<string, unknown>;
export interface Op {
  insert?: string | Record<string, unknown>;
  attributes?: Attributes;
  retain?: number | Record<string, unknown>;
  delete?: number;
}

const MAX_INDENT = 8;

// ── sections → Delta ──────────────────────────────────────────────

function runAttributes(run: DocumentRun): Attributes | undefined {
  if (run.type === 'image') {
    const attributes: Attributes = {};
    if (run.width) attributes.width = String(run.width);
    if (run.height) attributes.height = String(run.height);
    return Object.keys(attributes).length ? attributes : undefined;
  }
  const font = run.fontAttributes;
  const attributes: Attributes = {};
  if (font.bold) attributes.bold = true;
  if (font.italic) attributes.italic = true;
  if (font.underline) attributes.underline = true;
  if (font.color) attributes.color = font.color;
  if (font.fontSize) attributes.size = `${font.fontSize}px`;
  if (font.fontFamily) attributes.font = font.fontFamily;
  const link = allowedLink(run.link);
  if (link) attributes.link = link;
  return Object.keys(attributes).length ? attributes : undefined;
}

function pushRuns(ops: Op[], runs: DocumentRun[]): void {
  for (const run of runs) {
    const attributes = runAttributes(run);
    // A line break inside a run would split the line in the editor: the model's lines are sections.
    const insert = run.type === 'image' ? { image: run.address } : run.text.replace(/\r?\n/g, ' ');
    if (insert === '') continue;
    ops.push(attributes ? { insert, attributes } : { insert });
  }
}

const LINE_FORMATS: Record<Exclude<DocumentSection['kind'], 'list'>, Attributes | undefined> = {
  paragraph: undefined,
  heading1: { header: 1 },
  heading2: { header: 2 },
  blockquote: { blockquote: true },
  code: { 'code-block': true },
};

function pushItems(ops: Op[], items: DocumentListItem[], ordered: boolean, indent: number): void {
  for (const item of items) {
    pushRuns(ops, item.runs);
    const level = Math.min(indent, MAX_INDENT);
    ops.push({ insert: '\n', attributes: { list: ordered ? 'ordered' : 'bullet', ...(level ? { indent: level } : {}) } });
    if (item.subItems?.length) pushItems(ops, item.subItems, ordered, indent + 1);
  }
}

export function sectionsToDelta(sections: DocumentContent): { ops: Op[] } {
  const ops: Op[] = [];
  for (const section of sections) {
    if (section.kind === 'list') {
      pushItems(ops, section.items ?? [], section.ordered ?? false, 0);
      continue;
    }
    pushRuns(ops, section.runs ?? []);
    const format = LINE_FORMATS[section.kind];
    ops.push(format ? { insert: '\n', attributes: format } : { insert: '\n' });
  }
  return { ops: mergeText(ops) };
}

/** Adjacent text inserts with the same attributes become one, as Quill itself keeps them. */
function mergeText(ops: Op[]): Op[] {
  const out: Op[] = [];
  for (const op of ops) {
    const last = out.at(-1);
    if (last && typeof last.insert === 'string' && typeof op.insert === 'string' && sameAttributes(last.attributes, op.attributes)) {
      last.insert += op.insert;
    } else {
      out.push({ ...op });
    }
  }
  return out;
}

const sameAttributes = (a: Attributes | undefined, b: Attributes | undefined) => JSON.stringify(sorted(a ?? {})) === JSON.stringify(sorted(b ?? {}));
const sorted = (value: Attributes) => Object.fromEntries(Object.entries(value).sort(([x], [y]) => x.localeCompare(y)));

// ── Delta → sections ──────────────────────────────────────────────

/** `#rrggbb`, `#rgb` or `rgb(r, g, b)` → `#rrggbb`; anything else is no colour. */
export function normaliseColor(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(v)) return v;
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${[...v.slice(1)].map((c) => c + c).join('')}`;
  const rgb = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(v);
  if (!rgb) return null;
  return `#${rgb
    .slice(1, 4)
    .map((n) => Math.min(255, Number(n)).toString(16).padStart(2, '0'))
    .join('')}`;
}

function fontAttributes(attributes: Attributes): DocumentFontAttributes {
  const font: DocumentFontAttributes = {};
  if (attributes.bold) font.bold = true;
  if (attributes.italic) font.italic = true;
  if (attributes.underline) font.underline = true;
  const color = normaliseColor(attributes.color);
  if (color) font.color = color;
  const size = typeof attributes.size === 'string' ? /^(\d+(?:\.\d+)?)px$/.exec(attributes.size) : null;
  if (size) font.fontSize = Number(size[1]);
  if (typeof attributes.font === 'string' && attributes.font) font.fontFamily = attributes.font.slice(0, 100);
  return font;
}

const positiveInt = (value: unknown): number | undefined => {
  const n = Math.round(Number(value));
  return Number.isFinite(n) && n > 0 ? Math.min(n, 10_000) : undefined;
};

function toRun(insert: string | Record<string, unknown>, attributes: Attributes): DocumentRun | null {
  if (typeof insert === 'string') {
    const link = allowedLink(typeof attributes.link === 'string' ? attributes.link : null);
    return { type: 'text', text: insert, fontAttributes: fontAttributes(attributes), ...(link ? { link } : {}) };
  }
  if (typeof insert.image !== 'string') return null;
  const width = positiveInt(attributes.width);
  const height = positiveInt(attributes.height);
  return { type: 'image', address: insert.image, ...(width ? { width } : {}), ...(height ? { height } : {}) };
}

function pushRun(runs: DocumentRun[], run: DocumentRun): void {
  const last = runs.at(-1);
  if (
    run.type === 'text' &&
    last?.type === 'text' &&
    (last.link ?? null) === (run.link ?? null) &&
    JSON.stringify(sorted(last.fontAttributes)) === JSON.stringify(sorted(run.fontAttributes))
  ) {
    last.text += run.text;
    return;
  }
  runs.push(run);
}

interface Line {
  runs: DocumentRun[];
  attributes: Attributes;
}

function lines(ops: Op[]): Line[] {
  const out: Line[] = [];
  let runs: DocumentRun[] = [];
  for (const op of ops) {
    if (op.insert === undefined) continue;
    const attributes = op.attributes ?? {};
    if (typeof op.insert !== 'string') {
      const run = toRun(op.insert, attributes);
      if (run) pushRun(runs, run);
      continue;
    }
    const pieces = op.insert.split('\n');
    pieces.forEach((piece, index) => {
      if (index > 0) {
        out.push({ runs, attributes });
        runs = [];
      }
      if (piece) pushRun(runs, toRun(piece, attributes)!);
    });
  }
  // Text after the last newline (not a well-formed document, but never dropped).
  if (runs.length) out.push({ runs, attributes: {} });
  return out;
}

function lineKind(attributes: Attributes): Exclude<DocumentSection['kind'], 'list'> {
  if (attributes.header === 1) return 'heading1';
  if (typeof attributes.header === 'number' && attributes.header > 1) return 'heading2';
  if (attributes.blockquote) return 'blockquote';
  if (attributes['code-block']) return 'code';
  return 'paragraph';
}

interface ListLine {
  runs: DocumentRun[];
  level: number;
  ordered: boolean;
}

function listSection(list: ListLine[]): DocumentSection {
  const items = nestByLevel(list);
  return { kind: 'list', runs: [], ordered: list[0]!.ordered, items };
}

export function deltaToSections(delta: { ops: Op[] }): DocumentContent {
  const sections: DocumentContent = [];
  let list: ListLine[] = [];
  const flush = () => {
    if (list.length) sections.push(listSection(list));
    list = [];
  };
  for (const line of lines(delta.ops)) {
    const kind = line.attributes.list;
    if (typeof kind === 'string') {
      const ordered = kind === 'ordered';
      const level = Math.min(Math.max(0, Math.round(Number(line.attributes.indent ?? 0)) || 0), MAX_INDENT);
      // A new list starts where a top-level line changes between numbered and bulleted.
      if (list.length && level === 0 && list[0]!.ordered !== ordered) flush();
      list.push({ runs: line.runs, level, ordered });
      continue;
    }
    flush();
    sections.push({ kind: lineKind(line.attributes), runs: line.runs });
  }
  flush();
  return sections;
}
