export const OFFLINE_FILES_PATH = '/drive/offline';
