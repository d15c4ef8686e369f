import 'quill/dist/quill.snow.css';
import { useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { useBootstrap } from '../bootstrap/store';
import { secondaryButtonClass } from '../../ui/form/field-classes';
import { Icon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast/toast-store';
import { useOnline } from '../../ui/use-online';
import { useRenameEntry } from '../drive/api';
import { startDownload } from '../drive/hooks/use-drive-actions';
import { useSavesRefreshDrive } from '../drive/offline/use-offline-files';
import { useRestoreVersion } from '../drive/api/versions';
import { useTimezone } from '../../i18n/use-timezone';
import { useDocumentEditor, type SaveStatus } from './use-document-editor';

const STATUS_LINES: Record<SaveStatus, string | null> = {
  idle: null,
  saving: 'Saving…',
  saved: 'Saved',
  offline: 'Saved on this device, will sync when online',
  conflict: 'Conflict: your version was saved as a copy',
  failed: 'There was an issue. Please try again.',
};

/** The name's extension stays as it is: the box edits what comes before it, so a rename keeps a Word document one. */
export function splitExtension(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? { base: name.slice(0, dot), extension: name.slice(dot) } : { base: name, extension: '' };
}

/** /doc/{entryId}: the document editor for one stored .docx (spec §2, §4). */
export function DocumentPage() {
  const { entryId } = useParams();
  const [search] = useSearchParams();
  // /doc/{id}?version={versionId}: an earlier version, shown read-only (issue 34).
  const versionId = Number(search.get('version')) || null;
  const { user } = useBootstrap();
  const { t } = useTrans();
  const online = useOnline();
  const { hostRef, loading, error, name, status, permissions, shownVersion, saveNow, saveSettled, renamed } = useDocumentEditor(
    entryId,
    user ? String(user.id) : null,
    versionId,
  );
  useSavesRefreshDrive(user ? String(user.id) : null);
  const line = STATUS_LINES[status];
  const canDownload = online && !versionId && !!permissions?.includes('files.download');
  // A download asked for while changes are on their way waits for their save: the file is what the screen shows.
  const [downloadWaiting, setDownloadWaiting] = useState(false);

  const handleDownload = async () => {
    if (!entryId) return;
    setDownloadWaiting(true);
    // A save kept on the device or refused: the status line says why, and the older bytes are not fetched.
    const saved = await saveSettled();
    setDownloadWaiting(false);
    if (saved) startDownload([{ hash: entryId }]);
  };

  return (
    <section className="mx-auto flex w-full max-w-4xl flex-col gap-3 px-4 py-4" aria-busy={loading}>
      <header className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <Link to="/drive" className="shrink-0 text-sm text-primary hover:underline" aria-label={t('Back to drive')}>
            <Icon name="arrowBack" className="size-5 sm:hidden" />
            <span className="hidden sm:inline">{t('Back to drive')}</span>
          </Link>
          {entryId && name !== null ? (
            <DocumentTitle
              key={name}
              entryId={entryId}
              name={name}
              canRename={online && !versionId && !!permissions?.includes('files.update')}
              onRenamed={renamed}
            />
          ) : (
            <h1 className="min-w-0 flex-1 truncate text-xl font-semibold">{t('Document editor')}</h1>
          )}
        </div>
        <div className="flex flex-wrap items-center justify-end gap-2">
          <span role="status" aria-live="polite" data-testid="save-status" data-status={status} className="mr-auto text-sm text-fg-muted sm:mr-0">
            {line ? t(line) : ''}
          </span>
          {canDownload && (
            <button
              type="button"
              className={`${secondaryButtonClass} inline-flex items-center gap-1.5`}
              disabled={loading || error !== null || downloadWaiting}
              onClick={() => void handleDownload()}
            >
              <Icon name="download" className="size-5" />
              {t('Download')}
            </button>
          )}
          {!versionId && (
            <button type="button" className={secondaryButtonClass} disabled={loading || error !== null} onClick={() => void saveNow(true)}>
              {t('Save now')}
            </button>
          )}
        </div>
      </header>
      {entryId && versionId && shownVersion && (
        <EarlierVersionBanner entryId={entryId} version={shownVersion} canRestore={!!permissions?.includes('files.update')} online={online} />
      )}
      {error ? (
        <p role="alert" className="rounded border border-danger/40 bg-danger/10 p-4 text-danger" data-testid="document-error">
          {t(error)}
        </p>
      ) : null}
      {loading && !error ? <Spinner /> : null}
      <div ref={hostRef} className={error ? 'hidden' : 'document-editor rounded bg-white text-black'} data-testid="document-editor" />
    </section>
  );
}

/**
 * Above an earlier version shown read-only: which version it is, that it is read-only, a way back to
 * the current version and — for those who may change the file — Restore, which needs the server (the
 * current content becomes a version first), so offline it is refused with the reason.
 */
function EarlierVersionBanner({
  entryId,
  version,
  canRestore,
  online,
}: {
  entryId: string;
  version: { id: number; created_at: string };
  canRestore: boolean;
  online: boolean;
}) {
  const { t, language } = useTrans();
  const timezone = useTimezone();
  const navigate = useNavigate();
  const restore = useRestoreVersion(entryId);
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }).format(new Date(version.created_at));
  const handleRestore = () =>
    restore.mutate(version.id, {
      onSuccess: () => {
        toast(t('Version restored'));
        void navigate(`/doc/${entryId}`, { replace: true });
      },
      onError: (failure) => toast.danger(t(getErrorMessage(failure))),
    });
  return (
    <div
      role="region"
      aria-label={t('Earlier version')}
      data-testid="earlier-version"
      className="flex flex-col gap-2 rounded border border-warning/40 bg-warning/10 p-3 text-sm sm:flex-row sm:items-center"
    >
      <p className="flex-1">{t('You are viewing the version of :date. It is read-only.', { date })}</p>
      <div className="flex flex-wrap items-center gap-2">
        <Link to={`/doc/${entryId}`} replace className="text-primary hover:underline">
          {t('Open the current version')}
        </Link>
        {canRestore && (
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={!online || restore.isPending}
            aria-describedby={online ? undefined : 'earlier-version-offline'}
            onClick={handleRestore}
          >
            {t('Restore this version')}
          </button>
        )}
      </div>
      {!online && canRestore && (
        <p id="earlier-version-offline" className="text-xs text-fg-muted sm:basis-full">
          {t('Versions can be restored only while online.')}
        </p>
      )}
    </div>
  );
}

/**
 * The document's name as a one-line box: Enter or leaving it renames the file (its extension kept),
 * Escape puts the name back. Read-only for a caller who may not rename it, and offline.
 */
function DocumentTitle({ entryId, name, canRename, onRenamed }: { entryId: string; name: string; canRename: boolean; onRenamed: (name: string) => void }) {
  const { t } = useTrans();
  const rename = useRenameEntry();
  const { base, extension } = splitExtension(name);
  const [value, setValue] = useState(base);
  // Escape's blur comes before its reset renders: it must not rename with the typed value.
  const cancelled = useRef(false);

  const commit = () => {
    const next = value.trim();
    if (cancelled.current || !next || next === base) {
      cancelled.current = false;
      setValue(base);
      return;
    }
    rename.mutate(
      { id: entryId, name: `${next}${extension}` },
      {
        onSuccess: ({ fileEntry }) => onRenamed(fileEntry.name),
        onError: (failure) => {
          setValue(base);
          toast.danger(t(getErrorMessage(failure)));
        },
      },
    );
  };

  return (
    <h1 className="flex min-w-0 flex-1 items-baseline text-xl font-semibold">
      <input
        aria-label={t('Document name')}
        data-testid="document-name"
        value={value}
        readOnly={!canRename || rename.isPending}
        onChange={(event) => setValue(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
          if (event.key === 'Escape') {
            cancelled.current = true;
            event.currentTarget.blur();
          }
        }}
        className="min-w-0 flex-1 truncate rounded border border-transparent bg-transparent px-1 py-0.5 hover:border-divider focus:border-primary focus:outline-none read-only:hover:border-transparent"
      />
      {extension && <span className="shrink-0 text-base font-normal text-fg-muted">{extension}</span>}
    </h1>
  );
}
