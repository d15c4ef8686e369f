import type { DriveViewId } from './views';

// Spec §2 empty-state table, word for word.
export interface EmptyMessage {
  title: string;
  text?: string;
}

export function emptyStateFor(view: DriveViewId, searching = false): EmptyMessage {
  switch (view) {
    case 'folder':
      return { title: 'Drop files or folders here', text: 'Or use the "Upload" button' };
    case 'recent':
    case 'sql':
      return { title: 'No recent entries', text: 'You have not uploaded any files or folders yet' };
    case 'search':
      return searching
        ? { title: 'No matching results', text: 'Try changing your search query or filters' }
        : { title: 'Begin typing or select a filter to search' };
    case 'shares':
      return { title: 'Shared with me', text: 'Files and folders other people have shared with you' };
    case 'trash':
      return { title: 'Trash is empty', text: 'There are no files or folders in your trash currently' };
    case 'starred':
      return { title: 'Nothing is starred', text: 'Add stars to files and folders that you want to easily find later' };
  }
}
