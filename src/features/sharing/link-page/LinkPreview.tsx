import { useTrans } from '../../../i18n/use-trans';
import { FileIcon } from '../../drive/components/FileIcon';
import { previewKindOf } from '../../drive/lib/file-kind';
import type { LinkEntry } from '../api/visitor';

/** A file of a link shown as the drive's preview shows it; markup stays an attachment (the server sandboxes it too). */
export function LinkPreview({ entry, className = '' }: { entry: LinkEntry; className?: string }) {
  const { t } = useTrans();
  const src = entry.url ?? '';
  switch (previewKindOf(entry)) {
    case 'image':
      return <img src={src} alt={entry.name} className={`max-h-[70vh] max-w-full object-contain ${className}`} />;
    case 'video':
      return <video src={src} controls className={`max-h-[70vh] max-w-full ${className}`} aria-label={entry.name} />;
    case 'audio':
      return <audio src={src} controls aria-label={entry.name} />;
    case 'pdf':
      return <iframe src={src} title={entry.name} className={`h-[70vh] w-full rounded bg-white ${className}`} />;
    case 'text':
      return <iframe src={src} title={entry.name} sandbox="" className={`h-[60vh] w-full rounded border border-divider bg-white ${className}`} />;
    default:
      return (
        <div className="flex flex-col items-center gap-4 py-8 text-center">
          <FileIcon entry={entry} className="size-24" />
          <p>{t('No preview available for this file')}</p>
        </div>
      );
  }
}
