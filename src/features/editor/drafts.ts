import type { DocumentContent } from '../../offline/documents/types';
import { userDatabase, type CachedDocument, type DocumentDraft } from '../../offline/user-db';

// Drafts (every change, kept within a second) and the server's copy of each
// document opened on this device, in the user's own database: reopening —
// after a reload, a browser restart, or offline — shows the draft first.

export interface OpenedCopy {
  content: DocumentContent;
  /** The server version the content was edited from. */
  version: string;
  name: string | null;
  isDraft: boolean;
}

export async function localCopy(userId: string, entryId: string): Promise<OpenedCopy | null> {
  const db = userDatabase(userId);
  const [draft, cached] = await Promise.all([db.drafts.get(entryId), db.documents.get(entryId)]);
  if (draft) return { content: draft.content as DocumentContent, version: draft.baseEtag ?? '', name: cached?.name ?? null, isDraft: true };
  if (cached) return { content: cached.content as DocumentContent, version: cached.version, name: cached.name, isDraft: false };
  return null;
}

export async function saveDraft(userId: string, entryId: string, content: DocumentContent, baseVersion: string, now = Date.now()): Promise<DocumentDraft> {
  const draft: DocumentDraft = { entryId, content, baseEtag: baseVersion, updatedAt: now };
  await userDatabase(userId).drafts.put(draft);
  return draft;
}

export async function draftOf(userId: string, entryId: string): Promise<DocumentDraft | undefined> {
  return userDatabase(userId).drafts.get(entryId);
}

export async function cacheServerCopy(userId: string, copy: Omit<CachedDocument, 'fetchedAt'>): Promise<void> {
  await userDatabase(userId).documents.put({ ...copy, fetchedAt: Date.now() });
}
