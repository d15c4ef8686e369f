import type { JsonBody, JsonResponse } from '../../../api/api-types';
import type { components, paths } from '../../../api/schema';

// Wire shapes of the drive calls, named once (generated from the server's OpenAPI document).
export type FileEntry = components['schemas']['FileEntry'];
/** A listing's entry: with content search, where the words are in the file. */
export type ListedFileEntry = components['schemas']['ListedFileEntry'];
export type SnippetSegment = components['schemas']['SnippetSegment'];
export type Folder = components['schemas']['Folder'];
export type FolderCrumb = components['schemas']['FolderCrumb'];
export type ListResponse = JsonResponse<'/api/v1/drive/file-entries', 'get'>;
export type FolderTreeResponse = JsonResponse<'/api/v1/drive/folders', 'get'>;
export type FolderNode = FolderTreeResponse['folders'][number];
export type PathResponse = JsonResponse<'/api/v1/folders/{hash}/path', 'get'>;
export type DetailsResponse = JsonResponse<'/api/v1/file-entries/{id}', 'get'>;
export type EntryDetails = DetailsResponse['fileEntry'];
export type SpaceUsage = JsonResponse<'/api/v1/user/space-usage', 'get'>;
export type DeleteBody = JsonBody<'/api/v1/file-entries/delete', 'post'>;
export type DeleteResponse = JsonResponse<'/api/v1/file-entries/delete', 'post'>;
export type EntriesResponse = JsonResponse<'/api/v1/file-entries/move', 'post'>;
export type FolderResponse = JsonResponse<'/api/v1/folders', 'post'>;
export type FileEntryResponse = JsonResponse<'/api/v1/file-entries/{id}', 'put'>;
export type ListQuery = NonNullable<paths['/api/v1/drive/file-entries']['get']['parameters']['query']>;
export type OrderBy = NonNullable<ListQuery['orderBy']>;
export type OrderDir = NonNullable<ListQuery['orderDir']>;
export type EntryType = NonNullable<ListQuery['type']>;
