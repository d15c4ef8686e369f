import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useSearchParams } from 'react-router-dom';
import { formatBytes } from '../../../i18n/format-size';
import { useTrans } from '../../../i18n/use-trans';
import { ModalDialog } from '../../../ui/Dialog';
import { inputClass, linkClass, primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { Spinner } from '../../../ui/Spinner';
import { FileIcon } from '../../drive/components/FileIcon';
import { useLinkListing, type LinkEntry, type VisitorLink } from '../api/visitor';
import { LinkHeader } from './LinkHeader';
import { LinkPreview } from './LinkPreview';
import { useLinkDownload } from './use-link-download';

/** A linked folder: its listing (folders open in place), previews, and downloads of one file, a selection or all. */
export function LinkFolderView({ token, link, entry }: { token: string; link: VisitorLink; entry: LinkEntry }) {
  const { t } = useTrans();
  const [params, setParams] = useSearchParams();
  const folderId = params.get('folder');
  const [search, setSearch] = useState('');
  const listing = useLinkListing(token, folderId, search.trim(), true);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [previewing, setPreviewing] = useState<LinkEntry | null>(null);
  const download = useLinkDownload(token);
  const rows = listing.data?.pagination.data ?? [];
  const open = (hash: string | null) => {
    setSelected(new Set());
    setParams(hash && hash !== entry.hash ? { folder: hash } : {});
  };
  const toggle = (hash: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(hash)) next.delete(hash);
      else next.add(hash);
      return next;
    });

  return (
    <>
      <LinkHeader
        link={link}
        title={entry.name}
        actions={
          link.allow_download ? (
            <div className="flex gap-2">
              {selected.size > 0 && (
                <Button className={primaryButtonClass} onPress={() => download([...selected])}>
                  {t('Download :count selected', { count: selected.size })}
                </Button>
              )}
              <Button className={selected.size ? secondaryButtonClass : primaryButtonClass} onPress={() => download([listing.data?.folder.hash ?? entry.hash])}>
                {t('Download all')}
              </Button>
            </div>
          ) : null
        }
      />
      <nav aria-label={t('Folder path')} className="mb-3 flex flex-wrap items-center gap-1 text-sm">
        {(listing.data?.path ?? []).map((crumb, index, all) => (
          <span key={crumb.hash} className="flex items-center gap-1">
            {index > 0 && <span aria-hidden="true">/</span>}
            {index === all.length - 1 ? (
              <span className="font-medium">{crumb.name}</span>
            ) : (
              <button type="button" className={linkClass} onClick={() => open(crumb.hash)}>
                {crumb.name}
              </button>
            )}
          </span>
        ))}
      </nav>
      <input
        type="search"
        aria-label={t('Search in this folder')}
        placeholder={t('Search in this folder')}
        className={`${inputClass} mb-3 max-w-sm`}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {listing.isLoading && <Spinner />}
      {listing.data && !rows.length && <p className="py-8 text-center text-fg-muted">{t('This folder is empty')}</p>}
      <ul className="divide-y divide-divider" aria-label={t('Files')}>
        {rows.map((row) => (
          <li key={row.hash} className="flex items-center gap-3 py-2" data-testid="link-entry">
            {link.allow_download && (
              <input type="checkbox" aria-label={t('Select :name', { name: row.name })} checked={selected.has(row.hash)} onChange={() => toggle(row.hash)} />
            )}
            {row.thumbnail_url ? <img src={row.thumbnail_url} alt="" className="size-8 rounded object-cover" /> : <FileIcon entry={row} className="size-8" />}
            <button
              type="button"
              className="min-w-0 flex-1 truncate text-left hover:underline"
              onClick={() => (row.type === 'folder' ? open(row.hash) : setPreviewing(row))}
            >
              {row.name}
            </button>
            <span className="w-24 text-right text-sm text-fg-muted">{row.type === 'folder' ? '' : formatBytes(row.file_size)}</span>
          </li>
        ))}
      </ul>
      {previewing && (
        <ModalDialog title={previewing.name} isOpen onOpenChange={(isOpen) => !isOpen && setPreviewing(null)} className="max-w-4xl">
          <div className="flex justify-center">
            <LinkPreview entry={previewing} />
          </div>
          <div className="mt-3 flex justify-end gap-2">
            {link.allow_download && (
              <Button className={primaryButtonClass} onPress={() => download([previewing.hash])}>
                {t('Download')}
              </Button>
            )}
            <Button className={secondaryButtonClass} onPress={() => setPreviewing(null)}>
              {t('Close')}
            </Button>
          </div>
        </ModalDialog>
      )}
    </>
  );
}
