// The drive's calls as TanStack Query hooks over the ky client (STYLE §5).
export { driveKeys } from './api/keys';
export { useListing, PER_PAGE } from './api/listing';
export type { Listing } from './api/listing';
export { useEntryDetails, useFolderPath, useFolderTree, useSpaceUsage } from './api/queries';
export {
  useCreateFolder,
  useDeleteEntries,
  useDuplicateEntries,
  useMoveEntries,
  useRenameEntry,
  useRestoreEntries,
  useStarEntries,
} from './api/mutations';
export { downloadUrl, previewUrl } from './api/links';
export type * from './api/types';
