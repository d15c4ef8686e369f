import { z } from 'zod';
import { PACKAGE_LIMITS } from './package.js';
import { XML_LIMITS } from './xml.js';

/**
 * Document content (spec §3): a list of sections, each holding text runs
 * (text with fontAttributes, or an image with its address) or list items with
 * optional subItems. One zod schema is the wire contract of read and save and
 * the type the .docx reader and writer share.
 */

/** Sizes the editor offers (spec §9); a run read from a file may carry any size, kept as it is. */
export const FONT_SIZES_PX = [10, 12, 14, 16, 18, 20, 24, 26, 30] as const;
/** Link protocols the editor allows (spec §9); any other href is dropped on read and on save. */
export const LINK_PROTOCOLS = ['http', 'https', 'mailto', 'tel', 'sms'] as const;
/** How deep lists nest: Word's nine levels (ilvl 0–8), Quill's indent 0–8. */
export const MAX_LIST_DEPTH = 9;

/**
 * The model's bounds follow from what a .docx within the package limits can
 * hold, so whatever read() gives fits the contract and saves back: no text is
 * longer than the largest part we inflate (every character comes from at least
 * one byte of document.xml), no list longer than the most elements we parse
 * (every run, line and item comes from at least one element). The request body
 * limit (routes.ts) bounds what one save sends in all. Values the reader takes
 * from attributes are brought within their own bounds on read.
 */
export const MODEL_LIMITS = {
  textChars: PACKAGE_LIMITS.partBytes,
  items: XML_LIMITS.elements,
  /** Word's largest type, 1638 pt. */
  fontSizePx: 2184,
  fontFamilyChars: 100,
  linkChars: 2048,
  imagePx: 10_000,
};

export const SECTION_KINDS = ['paragraph', 'heading1', 'heading2', 'blockquote', 'code', 'list'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/)
  .describe('#rrggbb');

export const fontAttributesSchema = z
  .object({
    fontFamily: z.string().max(MODEL_LIMITS.fontFamilyChars).nullish(),
    fontSize: z.number().min(1).max(MODEL_LIMITS.fontSizePx).nullish().describe('Pixels'),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    underline: z.boolean().optional(),
    color: color.nullish(),
  })
  .meta({ id: 'DocumentFontAttributes' });
export type FontAttributes = z.infer<typeof fontAttributesSchema>;

export const textRunSchema = z
  .object({
    type: z.literal('text'),
    text: z.string().max(MODEL_LIMITS.textChars),
    fontAttributes: fontAttributesSchema,
    link: z.string().max(MODEL_LIMITS.linkChars).nullish().describe('http, https, mailto, tel or sms only'),
  })
  .meta({ id: 'DocumentTextRun' });

export const imageRunSchema = z
  .object({
    type: z.literal('image'),
    address: z.string().max(2048).describe("The document's own image (file-entries/{id}/document-images/{name}) or a drive image (file-entries/{id}/preview)"),
    width: z.number().int().min(1).max(MODEL_LIMITS.imagePx).nullish().describe('Pixels'),
    height: z.number().int().min(1).max(MODEL_LIMITS.imagePx).nullish().describe('Pixels'),
  })
  .meta({ id: 'DocumentImageRun' });

export const runSchema = z.discriminatedUnion('type', [textRunSchema, imageRunSchema]);
export type TextRun = z.infer<typeof textRunSchema>;
export type ImageRun = z.infer<typeof imageRunSchema>;
export type Run = z.infer<typeof runSchema>;

const runs = z.array(runSchema).max(MODEL_LIMITS.items);

export interface ListItem {
  runs: Run[];
  subItems?: ListItem[];
}

export const listItemSchema: z.ZodType<ListItem> = z
  .object({
    runs,
    get subItems() {
      return z.array(listItemSchema).max(MODEL_LIMITS.items).optional();
    },
  })
  .meta({ id: 'DocumentListItem' });

export const sectionSchema = z
  .object({
    kind: z.enum(SECTION_KINDS),
    runs: runs.default([]).describe('The text of a paragraph, heading, quote or code line; empty for lists'),
    ordered: z.boolean().optional().describe('Lists: numbered (true) or bulleted'),
    items: z.array(listItemSchema).max(MODEL_LIMITS.items).optional().describe('Lists: the items, nested by subItems'),
  })
  .meta({ id: 'DocumentSection' });
export type Section = z.infer<typeof sectionSchema>;

export const contentSchema = z.array(sectionSchema).max(MODEL_LIMITS.items);

/** Whether an href may stay a link (spec §9 protocols, within the model's length); relative and other schemes may not. */
export function allowedLink(href: string | null | undefined): string | null {
  if (!href || href.trim().length > MODEL_LIMITS.linkChars) return null;
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(href.trim());
  if (!match || !(LINK_PROTOCOLS as readonly string[]).includes(match[1]!.toLowerCase())) return null;
  return href.trim();
}

/** Every list depth within bounds: deeper items are lifted to the deepest level Word knows. */
export function listDepth(items: ListItem[] | undefined): number {
  if (!items?.length) return 0;
  return 1 + Math.max(...items.map((item) => listDepth(item.subItems)));
}
