import type { components } from '../../api/schema';

// The document content of spec §3 as the save call sends it (the generated
// wire types): drafts, the cached copy and the save queue all hold it, so the
// page and the service worker share one shape.
export type DocumentSection = components['schemas']['DocumentSectionInput'];
export type DocumentRun = DocumentSection['runs'] extends (infer R)[] | undefined ? R : never;
export type DocumentListItem = components['schemas']['DocumentListItemInput'];
export type DocumentFontAttributes = components['schemas']['DocumentFontAttributesInput'];
export type DocumentContent = DocumentSection[];
