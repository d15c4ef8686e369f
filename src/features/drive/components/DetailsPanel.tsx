import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { useTimezone } from '../../../i18n/use-timezone';
import { IconButton } from '../../../ui/IconButton';
import { Icon } from '../../../ui/icons';
import { useOnline } from '../../../ui/use-online';
import { useEntryDetails } from '../api';
import type { FileEntry } from '../api/types';
import { formatBytes } from '../../../i18n/format-size';
import { detailsOpenAtom } from '../state';
import { FileIcon } from './FileIcon';
import { OfflineDetails } from '../offline/OfflineDetails';
import { VersionsPanel } from './VersionsPanel';
import { ActivityPanel } from './ActivityPanel';
import { purgeLine } from '../lib/trash-messages';

/** GET file-entries/{id}: what the selected entry is, where it lives and when it changed. */
export function DetailsPanel({ entry }: { entry: FileEntry | null }) {
  const { t, language } = useTrans();
  const timezone = useTimezone();
  const online = useOnline();
  const setOpen = useSetAtom(detailsOpenAtom);
  const details = useEntryDetails(entry && online ? entry.id : null);
  const shown = details.data && details.data.id === entry?.id ? details.data : entry;
  const format = (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }).format(new Date(iso));
  const location = details.data?.path?.map((c) => c.name).join(' / ');
  const [tab, setTab] = useState<'details' | 'activity'>('details');
  const tabClass = (name: typeof tab) => `flex-1 border-b-2 px-2 py-1 ${tab === name ? 'border-primary font-semibold' : 'border-transparent text-fg-muted'}`;
  return (
    <aside
      aria-label={t('Details')}
      className="w-72 shrink-0 overflow-y-auto border-l border-divider p-4 max-md:absolute max-md:inset-y-0 max-md:right-0 max-md:z-20 max-md:bg-paper"
    >
      <div className="mb-4 flex items-center gap-2">
        <h2 className="flex-1 truncate font-semibold">{shown ? shown.name : t('Details')}</h2>
        <IconButton label={t('Close')} onPress={() => setOpen(false)} className="size-8">
          <Icon name="close" className="size-5" />
        </IconButton>
      </div>
      {shown && (
        <div role="tablist" aria-label={t('Details')} className="mb-4 flex text-sm">
          <button type="button" role="tab" aria-selected={tab === 'details'} className={tabClass('details')} onClick={() => setTab('details')}>
            {t('Details')}
          </button>
          <button type="button" role="tab" aria-selected={tab === 'activity'} className={tabClass('activity')} onClick={() => setTab('activity')}>
            {t('Activity')}
          </button>
        </div>
      )}
      {shown && tab === 'activity' ? (
        <ActivityPanel entry={shown} />
      ) : shown ? (
        <dl className="space-y-3 text-sm">
          <div className="flex justify-center py-4">
            <FileIcon entry={shown} className="size-20" />
          </div>
          <Row label={t('Type')} value={shown.type === 'folder' ? t('Folder') : (shown.mime ?? shown.type)} />
          <Row label={t('Size')} value={formatBytes(shown.file_size)} />
          <Row label={t('Location')} value={location || t('Drive')} />
          <Row label={t('Modified')} value={format(shown.updated_at)} />
          <Row label={t('Created')} value={format(shown.created_at)} />
          {shown.description && <Row label={t('Description')} value={shown.description} />}
          {!shown.deleted_at && <OfflineDetails entry={shown} />}
          {shown.deleted_at && shown.purge_at && <Row label={t('Deleted forever')} value={purgeLine(shown.purge_at, t)} />}
        </dl>
      ) : (
        <p className="text-sm text-fg-muted">{t('Select a file or folder to see its details')}</p>
      )}
      {tab === 'details' && shown && shown.type !== 'folder' && !shown.deleted_at && <VersionsPanel entry={shown} />}
    </aside>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-fg-muted">{label}</dt>
      <dd className="break-words">{value}</dd>
    </div>
  );
}
