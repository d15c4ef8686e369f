import { useState } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { useTimezone } from '../../../i18n/use-timezone';
import { formatBytes } from '../../../i18n/format-size';
import { ActionButton } from '../../../ui/ActionButton';
import { useOnline } from '../../../ui/use-online';
import type { FileEntry } from '../api/types';
import { useDeleteVersion, useRestoreVersion, useVersions } from '../api/versions';

/**
 * The Versions part of a file's details: each earlier content with when and
 * who, a preview (kinds that have one) and a download, and — for those who may
 * change the file — restore and delete. Restoring needs the server (it makes
 * the current content a version first), so offline it is refused with a reason.
 */
export function VersionsPanel({ entry }: { entry: FileEntry }) {
  const { t, language } = useTrans();
  const timezone = useTimezone();
  const online = useOnline();
  const versions = useVersions(online ? entry.id : null);
  const restore = useRestoreVersion(entry.id);
  const remove = useDeleteVersion(entry.id);
  const [refusal, setRefusal] = useState<string | null>(null);
  const canChange = entry.permissions.includes('files.update');
  const format = (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }).format(new Date(iso));
  const offlineReason = online ? null : t('Versions can be restored only while online.');
  // Each opening paints the last list while it asks again: a restore since (here or on another device) has made a
  // new version, and Restore on the first row of the old list would bring back the wrong text. Rows act on the answer.
  const reason = offlineReason ?? (versions.isFetching ? t('Checking for newer versions…') : null);

  return (
    <section aria-label={t('Versions')} className="mt-6">
      <h3 className="mb-2 text-sm font-semibold">{t('Versions')}</h3>
      {!online && <p className="text-xs text-fg-muted">{t('Versions can be restored only while online.')}</p>}
      {versions.data?.length === 0 && <p className="text-xs text-fg-muted">{t('No earlier versions')}</p>}
      {refusal && (
        <p role="alert" className="text-xs text-danger">
          {refusal}
        </p>
      )}
      <ul className="space-y-3">
        {versions.data?.map((version) => (
          <li key={version.id} className="text-sm" data-testid="version">
            <div className="font-medium">{format(version.created_at)}</div>
            <div className="text-xs text-fg-muted">{[version.created_by?.name ?? t('Unknown'), formatBytes(version.file_size)].join(' · ')}</div>
            <div className="mt-1 flex flex-wrap gap-2 text-xs">
              {version.preview_url && (
                <a className="underline" href={version.preview_url} target="_blank" rel="noreferrer">
                  {t('Preview')}
                </a>
              )}
              {entry.extension === 'docx' && (
                <a className="underline" href={`/doc/${entry.id}?version=${version.id}`}>
                  {t('Open read-only')}
                </a>
              )}
              <a className="underline" href={version.download_url} download>
                {t('Download')}
              </a>
              {canChange && (
                <>
                  <ActionButton
                    label={t('Restore')}
                    disabledReason={reason}
                    onPress={() => {
                      if (!online) return setRefusal(t('Versions can be restored only while online.'));
                      setRefusal(null);
                      restore.mutate(version.id);
                    }}
                    className="underline"
                  >
                    {t('Restore')}
                  </ActionButton>
                  <ActionButton label={t('Delete version')} disabledReason={reason} onPress={() => online && remove.mutate(version.id)} className="underline">
                    {t('Delete')}
                  </ActionButton>
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
