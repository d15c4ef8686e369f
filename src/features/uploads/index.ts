// The upload feature's public face for the drive (Upload button, drop zone, layout).
export { UploadPanel } from './UploadPanel';
export { useUploadQueue } from './use-upload-queue';
export type { UploadQueue, UploadQueueOptions } from './use-upload-queue';
export type { UploadTarget } from './build-uploads';
export type { FileWithPath, UploadInput } from './files';
export { openFilePicker } from './pickers';
export type { PickerOptions } from './pickers';
export { readDroppedFiles } from './dropped-files';
export type { UploadItem, UploadStatus } from '../../offline/queues/uploads/types';
