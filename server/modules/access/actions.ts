/**
 * What a caller may do to a file entry. The names are the permission
 * catalogue's, so one vocabulary serves the route guard (the site role is a
 * ceiling) and the entry check (a grant on the entry).
 */
export const ENTRY_ACTIONS = ['files.view', 'files.create', 'files.update', 'files.delete', 'files.download', 'files.share'] as const;
export type EntryAction = (typeof ENTRY_ACTIONS)[number];

export type ActionSet = ReadonlySet<EntryAction>;

export const ALL_ACTIONS: ActionSet = new Set(ENTRY_ACTIONS);
export const NO_ACTIONS: ActionSet = new Set();
