import Quill from 'quill';
import type { QuillOptions } from 'quill';
import Image from 'quill/formats/image';
import Link from 'quill/formats/link';
import { LINK_PROTOCOLS } from './links';

const { Scope, StyleAttributor } = Quill.import('parchment');
const Delta = Quill.import('delta');

// The editor of spec §9: exactly its toolbar, font sizes, undo settings, link
// protocols and image types, and the formats that go with them. Pasted HTML
// becomes a Delta through Quill's clipboard, which keeps only these formats:
// scripts, styles, frames and unknown markup never reach the document.

export const FONT_SIZES = ['10px', '12px', '14px', '16px', '18px', '20px', '24px', '26px', '30px'];
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg'];
export const HISTORY = { delay: 1000, maxStack: 100, userOnly: true };
export const AUTO_SAVE_MS = 50_000;

export const TOOLBAR = [
  [{ header: 1 }, { header: 2 }],
  ['bold', 'italic', 'underline', 'link'],
  ['blockquote', 'code-block', 'image'],
  [{ list: 'ordered' }, { list: 'bullet' }],
  [{ size: FONT_SIZES }],
];

/** Toolbar formats, plus what documents carry without a button (colour, font, nesting). */
export const FORMATS = ['header', 'bold', 'italic', 'underline', 'link', 'blockquote', 'code-block', 'image', 'list', 'indent', 'size', 'color', 'font'];

/** The drive's own image addresses: a document's package image, or a drive image's preview. */
const OWN_IMAGE = /^\/api\/v1\/file-entries\/[A-Za-z0-9_-]{1,64}\/(preview|document-images\/[a-f0-9]{32}\.(png|jpe?g))(\?[^#]*)?$/;
export const isOwnImage = (src: string | null | undefined): src is string => typeof src === 'string' && OWN_IMAGE.test(src);

/**
 * The toolbar offers the spec's sizes; a document read from a file may carry
 * others (11 pt is 15 px), which are kept rather than silently dropped.
 */
class PixelSize extends StyleAttributor {
  override canAdd(node: HTMLElement, value: unknown): boolean {
    return typeof value === 'string' && /^\d{1,3}(\.\d+)?px$/.test(value) && super.canAdd(node, value);
  }
}

/** Images only from the drive itself: no remote address (or data: URL) is ever shown or saved. */
class DriveImage extends Image {
  static override sanitize(url: string): string {
    return isOwnImage(url) ? url : '//:0';
  }
}

class AllowedLink extends Link {
  static override PROTOCOL_WHITELIST = LINK_PROTOCOLS;
}

let registered = false;

export function registerEditorFormats(): void {
  if (registered) return;
  registered = true;
  Quill.register(
    {
      'attributors/style/size': new PixelSize('size', 'font-size', { scope: Scope.INLINE }),
      'formats/size': new PixelSize('size', 'font-size', { scope: Scope.INLINE }),
      'formats/font': new StyleAttributor('font', 'font-family', { scope: Scope.INLINE }),
      'formats/image': DriveImage,
      'formats/link': AllowedLink,
    },
    true,
  );
}

/** Pasted images that are not the drive's own are left out (not kept as a broken or remote image), and so is code. */
export function installPasteRules(quill: Quill): void {
  quill.clipboard.addMatcher('IMG', (node, delta) => (isOwnImage((node as HTMLElement).getAttribute('src')) ? delta : new Delta()));
  // Quill would keep a script's or style sheet's source as text; it is not the document's text.
  for (const tag of ['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT']) quill.clipboard.addMatcher(tag, () => new Delta());
}

export function editorOptions(uploadImages: (files: File[]) => Promise<string[]>): QuillOptions {
  return {
    theme: 'snow',
    formats: FORMATS,
    modules: {
      toolbar: TOOLBAR,
      history: HISTORY,
      uploader: {
        mimetypes: IMAGE_MIME_TYPES,
        handler(this: { quill: Quill }, range: { index: number; length: number }, files: File[]) {
          void uploadImages(files).then((addresses) => {
            let index = range.index;
            this.quill.deleteText(range.index, range.length, 'user');
            for (const address of addresses) {
              this.quill.insertEmbed(index, 'image', address, 'user');
              index += 1;
            }
            this.quill.setSelection(index, 0, 'silent');
          });
        },
      },
    },
  };
}
