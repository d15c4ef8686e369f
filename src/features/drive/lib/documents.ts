import type { FileEntry } from '../api/types';

/** Files the document editor opens: stored Word documents (.docx). */
export const isDocument = (entry: Pick<FileEntry, 'type' | 'extension' | 'name'>): boolean =>
  entry.type !== 'folder' && (entry.extension?.toLowerCase() === 'docx' || entry.name.toLowerCase().endsWith('.docx'));

export const documentPath = (hash: string) => `/doc/${encodeURIComponent(hash)}`;
