import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { getErrorMessage, getFieldError } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { ModalDialog } from '../../../ui/Dialog';
import { primaryButtonClass } from '../../../ui/form/field-classes';
import { TextField } from '../../../ui/form/TextField';
import { toast } from '../../../ui/toast/toast-store';
import {
  exportLocalization,
  useCreateLocalization,
  useDeleteLocalization,
  useImportLocalization,
  useLocalizations,
  useUpdateLocalization,
  type AdminLocalization,
} from '../appearance-api';
import { AdminTable } from '../AdminTable';
import { ConfirmDelete } from '../ConfirmDelete';
import { FormButtons } from '../../../ui/form/FormButtons';

/** The site's languages: add, rename, make default, delete, export and import (the line editor is one click away). */
export function LocalizationsPage() {
  const { t } = useTrans();
  const list = useLocalizations();
  const update = useUpdateLocalization();
  const remove = useDeleteLocalization();
  const importing = useImportLocalization();
  const [editing, setEditing] = useState<AdminLocalization | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminLocalization | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const importTarget = useRef<AdminLocalization | null>(null);

  const handleExport = async (loc: AdminLocalization) => {
    try {
      const file = await exportLocalization(loc.id);
      const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${loc.language}.json`;
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast.danger(getErrorMessage(error));
    }
  };

  const handleImportFile = async (file: File | undefined) => {
    const target = importTarget.current;
    if (!file || !target) return;
    let lines: unknown;
    try {
      const parsed: unknown = JSON.parse(await file.text());
      // An exported file ({language, name, lines}) or a bare map of lines.
      lines = typeof parsed === 'object' && parsed !== null && 'lines' in parsed ? (parsed as { lines: unknown }).lines : parsed;
    } catch {
      toast.danger(t('This file is not valid JSON.'));
      return;
    }
    if (typeof lines !== 'object' || lines === null || Array.isArray(lines)) {
      toast.danger(t('This file is not valid JSON.'));
      return;
    }
    importing.mutate(
      { id: target.id, lines: lines as Record<string, unknown> },
      {
        onSuccess: ({ imported, unknown }) =>
          toast(
            unknown.length
              ? t('Imported :count lines. Skipped unknown keys: :keys', { count: imported, keys: unknown.slice(0, 5).join(', ') })
              : t('Imported :count lines.', { count: imported }),
          ),
        onError: (e) => toast.danger(getErrorMessage(e)),
      },
    );
  };

  return (
    <section>
      <div className="mb-4 flex items-center">
        <h1 className="mr-auto text-xl font-semibold">{t('Localizations')}</h1>
        <button type="button" className={primaryButtonClass} onClick={() => setEditing('new')}>
          {t('Add language')}
        </button>
      </div>
      <input
        ref={fileInput}
        type="file"
        accept="application/json,.json"
        className="hidden"
        aria-label={t('Import')}
        onChange={(e) => {
          void handleImportFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <AdminTable
        label={t('Localizations')}
        rows={list.data}
        isLoading={list.isLoading}
        emptyText="No languages"
        columns={[
          {
            key: 'name',
            label: 'Name',
            render: (loc) => (
              <>
                {loc.name}
                {loc.default && <span className="ml-2 rounded bg-primary/10 px-1 text-xs text-primary">{t('Default')}</span>}
              </>
            ),
          },
          { key: 'language', label: 'Code', render: (loc) => <span className="font-mono">{loc.language}</span> },
          { key: 'translated', label: 'Translated', render: (loc) => `${loc.translated} / ${loc.total}` },
        ]}
        actions={(loc) => (
          <>
            <Link to={`/admin/localizations/${loc.id}`} className="text-primary hover:underline">
              {t('Translate')}
            </Link>
            <button type="button" className="text-primary hover:underline" onClick={() => setEditing(loc)}>
              {t('Rename')}
            </button>
            {!loc.default && (
              <button
                type="button"
                className="text-primary hover:underline"
                onClick={() =>
                  update.mutate(
                    { id: loc.id, name: loc.name, default: true },
                    { onSuccess: () => toast(t('Default language changed')), onError: (e) => toast.danger(getErrorMessage(e)) },
                  )
                }
              >
                {t('Make default')}
              </button>
            )}
            <button type="button" className="text-primary hover:underline" onClick={() => void handleExport(loc)}>
              {t('Export')}
            </button>
            <button
              type="button"
              className="text-primary hover:underline"
              onClick={() => {
                importTarget.current = loc;
                fileInput.current?.click();
              }}
            >
              {t('Import')}
            </button>
            {!loc.default && loc.language !== 'en' && (
              <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(loc)}>
                {t('Delete')}
              </button>
            )}
          </>
        )}
      />
      {editing && <LanguageDialog localization={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDelete
          id={deleting.id}
          title={t('Delete language')}
          body={t('Delete :name and all its translations? Users who chose it see the default language.', { name: deleting.name })}
          success={t('Deleted language')}
          mutation={remove}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function LanguageDialog({ localization, onClose }: { localization: AdminLocalization | null; onClose: () => void }) {
  const { t } = useTrans();
  const create = useCreateLocalization();
  const update = useUpdateLocalization();
  const [name, setName] = useState(localization?.name ?? '');
  const [language, setLanguage] = useState(localization?.language ?? '');
  const error = localization ? update.error : create.error;

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const options = {
      onSuccess: () => {
        toast(localization ? t('Updated language') : t('Added language'));
        onClose();
      },
      onError: (e: unknown) => {
        if (!getFieldError(e, 'name') && !getFieldError(e, 'language')) toast.danger(getErrorMessage(e));
      },
    };
    if (localization) update.mutate({ id: localization.id, name }, options);
    else create.mutate({ language, name }, options);
  };

  return (
    <ModalDialog title={localization ? t('Rename language') : t('Add language')} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={handleSubmit} className="flex flex-col gap-3">
        {!localization && (
          <TextField
            label={t('Language code')}
            description={t('Such as de or pt-BR')}
            required
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
            error={getFieldError(error, 'language')}
          />
        )}
        <TextField label={t('Name')} required value={name} onChange={(e) => setName(e.target.value)} error={getFieldError(error, 'name')} />
        <FormButtons onCancel={onClose} pending={create.isPending || update.isPending} />
      </form>
    </ModalDialog>
  );
}
