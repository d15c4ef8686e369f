// The drive's calls as TanStack Query hooks over the ky client (STYLE §5).
export { driveKeys } from './keys';
export { useListing, PER_PAGE } from './listing';
export type { Listing } from './listing';
export { useEntryDetails, useFolderPath, useFolderTree, useSpaceUsage } from './queries';
export { useCreateFolder, useDeleteEntries, useDuplicateEntries, useMoveEntries, useRenameEntry, useRestoreEntries, useStarEntries } from './mutations';
export { downloadUrl, previewUrl } from './links';
export type * from './types';
