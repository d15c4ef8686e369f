import { SQL_EXTENSIONS } from '../../offline/queues/uploads/rules';
import { withoutIgnored } from './files';

export interface PickerOptions {
  /** Choose a whole folder (webkitdirectory): files keep their relative paths. */
  folder?: boolean;
  /** The SQL backups view: only .sql and .bak files (spec §2). */
  sqlOnly?: boolean;
}

export const SQL_ACCEPT = SQL_EXTENSIONS.map((ext) => `.${ext}`).join(',');

/**
 * Opens the browser's file (or folder) chooser from a hidden input and
 * resolves with the chosen files, without .DS_Store. Call it from a click
 * handler: browsers open choosers only in response to the user.
 */
export function openFilePicker(options: PickerOptions = {}): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.hidden = true;
    input.dataset.uploadPicker = options.folder ? 'folder' : 'files';
    if (options.folder) input.webkitdirectory = true;
    if (options.sqlOnly) input.accept = SQL_ACCEPT;
    const done = (files: File[]) => {
      input.remove();
      resolve(withoutIgnored(files));
    };
    input.addEventListener('change', () => done(Array.from(input.files ?? [])), { once: true });
    input.addEventListener('cancel', () => done([]), { once: true });
    // In the document, so the browser (and tests) can find the chooser's input.
    document.body.append(input);
    input.click();
  });
}
