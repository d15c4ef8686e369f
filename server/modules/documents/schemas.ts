import { z } from 'zod';
import { fileEntrySchema } from '../drive/schemas.js';
import { entryNameSchema } from '../drive/names.js';
import { contentSchema } from './model.js';

/** The wire contract of the document calls (spec §7 file-entries/read and file-entries/save). */
const hash = z.string().min(1).max(64);
const version = z.string().min(1).max(200).describe("The version the content was edited from: the read's `version` (the file's ETag, quotes optional)");

export const readBody = z.object({
  id: hash,
  versionId: z.number().int().positive().nullish().describe("One of the file's earlier versions (its versions list) to read instead of the current content"),
});
export const readResponse = z.object({
  data: contentSchema.describe('The document as a list of sections (spec §3 Document content)'),
  version: z.string().describe('The stored version (ETag without quotes); send it back with the save'),
  fileEntry: fileEntrySchema,
  shownVersion: z
    .object({ id: z.number(), created_at: z.string() })
    .optional()
    .describe('When an earlier version was asked for: which one `data` is (read-only; `version` stays the current one)'),
});

export const saveBody = z.object({ id: hash, content: contentSchema, version });
export const saveResponse = z.object({ version: z.string().describe('The new version'), fileEntry: fileEntrySchema });
export const conflictResponse = z.object({ message: z.string(), version: z.string().describe('The version the server has now') });

export const saveCopyBody = z.object({
  id: hash.describe('The document the content was edited from'),
  content: contentSchema,
  name: entryNameSchema.describe("The copy's name, e.g. 'Report (conflict 2026-11-25 14.05).docx'"),
});

export const createDocumentBody = z.object({
  parentId: hash.nullish().describe("The folder's hash; '0' or null for the root"),
  name: z.string().max(255).nullish().describe("Defaults to 'Untitled document.docx'"),
});

export const fileEntryResponse = z.object({ fileEntry: fileEntrySchema });

export const imageParams = z.object({
  id: hash,
  name: z.string().regex(/^[a-f0-9]{32}\.(png|jpe?g)$/),
});
