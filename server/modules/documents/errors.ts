import { HttpError, PayloadTooLarge, ValidationError } from '../../lib/errors.js';
import type { Lines } from '../../lib/i18n.js';

export const NOT_A_DOCX = 'This file is not a Word document (.docx).';
export const DAMAGED_DOCX = 'This document could not be read: it is damaged or not a Word document.';
export const DOCX_TOO_LARGE = 'This document is too large to open in the editor.';
export const SAVE_CONFLICT = 'This document was changed elsewhere since you opened it. Your version was not saved over it.';

export const notADocx = () => ValidationError.field('id', NOT_A_DOCX);
export const damagedDocx = () => ValidationError.field('id', DAMAGED_DOCX);
export const docxTooLarge = () => PayloadTooLarge(DOCX_TOO_LARGE);

/** 409 with the version the server has now, so a client can tell its copy is stale (and never overwrites it). */
export class SaveConflict extends HttpError {
  constructor(readonly version: string) {
    super(409, SAVE_CONFLICT, undefined, 'CONFLICT');
    this.headers = { ETag: `"${version}"` };
  }

  override body(lines: Lines | null) {
    return { ...super.body(lines), version: this.version };
  }
}
