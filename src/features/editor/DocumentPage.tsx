import 'quill/dist/quill.snow.css';
import { Link, useParams } from 'react-router-dom';
import { useTrans } from '../../i18n/use-trans';
import { useBootstrap } from '../bootstrap/store';
import { secondaryButtonClass } from '../../ui/form/field-classes';
import { Spinner } from '../../ui/Spinner';
import { useDocumentEditor, type SaveStatus } from './use-document-editor';

const STATUS_LINES: Record<SaveStatus, string | null> = {
  idle: null,
  saving: 'Saving…',
  saved: 'Saved',
  offline: 'Saved on this device, will sync when online',
  conflict: 'Conflict: your version was saved as a copy',
  failed: 'There was an issue. Please try again.',
};

/** /doc/{entryId}: the document editor for one stored .docx (spec §2, §4). */
export function DocumentPage() {
  const { entryId } = useParams();
  const { user } = useBootstrap();
  const { t } = useTrans();
  const { hostRef, loading, error, name, status, saveNow } = useDocumentEditor(entryId, user ? String(user.id) : null);
  const line = STATUS_LINES[status];

  return (
    <section className="mx-auto flex w-full max-w-4xl flex-col gap-3 px-4 py-4" aria-busy={loading}>
      <header className="flex flex-wrap items-center gap-3">
        <Link to="/drive" className="text-sm text-primary hover:underline">
          {t('Back to drive')}
        </Link>
        <h1 className="min-w-0 flex-1 truncate text-xl font-semibold" data-testid="document-name">
          {name ?? t('Document editor')}
        </h1>
        <span role="status" aria-live="polite" data-testid="save-status" data-status={status} className="text-sm text-fg-muted">
          {line ? t(line) : ''}
        </span>
        <button type="button" className={secondaryButtonClass} disabled={loading || error !== null} onClick={() => void saveNow(true)}>
          {t('Save now')}
        </button>
      </header>
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
