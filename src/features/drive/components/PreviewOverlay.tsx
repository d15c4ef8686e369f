import { useEffect, useState } from 'react';
import { useAtom } from 'jotai';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { AdSlot } from '../../../ui/AdSlot';
import { IconButton } from '../../../ui/IconButton';
import { Icon } from '../../../ui/icons';
import { previewUrl } from '../api';
import type { FileEntry } from '../api/types';
import { startDownload } from '../hooks/use-drive-actions';
import { previewKindOf } from '../lib/file-kind';
import { previewAtom } from '../state';
import { FileIcon } from './FileIcon';
import { useOnline } from '../../../ui/use-online';
import { usePinState } from '../../../offline/pins/client';
import { NotAvailableOffline } from '../offline/NotAvailableOffline';

/** Full-screen preview (GET file-entries/{id}/preview) with previous/next through the listing's files. */
export function PreviewOverlay() {
  const { t } = useTrans();
  const [state, setState] = useAtom(previewAtom);
  const entry = state?.entries[state.index];
  const count = state?.entries.length ?? 0;
  const go = (delta: number) => setState((s) => (s ? { ...s, index: (s.index + delta + s.entries.length) % s.entries.length } : s));

  useEffect(() => {
    if (!state) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowRight') go(1);
      if (event.key === 'ArrowLeft') go(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!state || !entry) return null;
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && setState(null)} className="fixed inset-0 z-50 bg-black/90 text-white">
      <Modal className="h-full w-full">
        <Dialog aria-label={t('Preview')} className="flex h-full flex-col outline-none">
          <header className="flex items-center gap-2 px-4 py-2">
            <FileIcon entry={entry} className="size-6" />
            <Heading slot="title" className="min-w-0 flex-1 truncate font-medium">
              {entry.name}
            </Heading>
            {entry.permissions.includes('files.download') && (
              <IconButton label={t('Download')} onPress={() => startDownload([entry])} className="text-white hover:bg-white/10">
                <Icon name="download" />
              </IconButton>
            )}
            <IconButton label={t('Close')} onPress={() => setState(null)} className="text-white hover:bg-white/10">
              <Icon name="close" />
            </IconButton>
          </header>
          <div className="relative flex min-h-0 flex-1 items-center justify-center px-16 pb-4">
            {count > 1 && (
              <IconButton label={t('Previous')} onPress={() => go(-1)} className="absolute left-2 text-white hover:bg-white/10">
                <Icon name="chevronLeft" />
              </IconButton>
            )}
            <PreviewBody key={entry.id} entry={entry} />
            {count > 1 && (
              <IconButton label={t('Next')} onPress={() => go(1)} className="absolute right-2 text-white hover:bg-white/10">
                <Icon name="chevronRight" />
              </IconButton>
            )}
          </div>
          <AdSlot slot="file-preview" className="px-4 pb-4" />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function PreviewBody({ entry }: { entry: FileEntry }) {
  const { t } = useTrans();
  const online = useOnline();
  const stored = usePinState(entry.id)?.stored ?? false;
  // The server could not be reached though the device says it is online (the worker had no copy to give).
  const [unreachable, setUnreachable] = useState(false);
  const src = previewUrl(entry);
  if (!stored && (!online || unreachable)) return <NotAvailableOffline entry={entry} />;
  const onError = () => setUnreachable(true);
  switch (previewKindOf(entry)) {
    case 'image':
      return <img src={src} alt={entry.name} onError={onError} className="max-h-full max-w-full object-contain" />;
    case 'video':
      return <video src={src} controls onError={onError} className="max-h-full max-w-full" aria-label={entry.name} />;
    case 'audio':
      return <audio src={src} controls onError={onError} aria-label={entry.name} />;
    case 'pdf':
      return <iframe src={src} title={entry.name} className="h-full w-full rounded bg-white" />;
    case 'text':
      // Served as plain text in a sandbox (CSP) by the server: markup shows as source.
      return <iframe src={src} title={entry.name} sandbox="" className="h-full w-full rounded bg-white" />;
    default:
      return (
        <div className="flex flex-col items-center gap-4 text-center">
          <FileIcon entry={entry} className="size-24" />
          <p>{t('No preview available for this file')}</p>
        </div>
      );
  }
}
