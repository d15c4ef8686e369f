import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { toast } from '../../../ui/toast/toast-store';
import { Pager } from '../Pager';
import { useLines, useSaveLines } from '../appearance-api';
import { LineRow } from './LineRow';

const PER_PAGE = 50;

/** Every line of one language, searched and paged on the server; changes are saved together. */
export function LinesEditor() {
  const { t } = useTrans();
  const id = Number(useParams().id);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [onlyUntranslated, setOnlyUntranslated] = useState(false);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const lines = useLines(id, { page, perPage: PER_PAGE, ...(search ? { query: search } : {}), ...(onlyUntranslated ? { untranslated: 'true' } : {}) });
  const save = useSaveLines(id);
  const changed = Object.keys(drafts).length;

  const handleSave = () =>
    save.mutate(Object.fromEntries(Object.entries(drafts).map(([key, value]) => [key, value === '' ? null : value])), {
      onSuccess: () => {
        setDrafts({});
        toast(t('Saved translations'));
      },
      onError: (e) => toast.danger(getErrorMessage(e)),
    });

  const data = lines.data;
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Link to="/admin/localizations" className="text-primary hover:underline">
          {t('Localizations')}
        </Link>
        <h1 className="mr-auto text-xl font-semibold">{data ? `${data.localization.name} (${data.localization.language})` : t('Loading...')}</h1>
        <button type="button" className={secondaryButtonClass} disabled={!changed} onClick={() => setDrafts({})}>
          {t('Cancel')}
        </button>
        <button type="button" className={primaryButtonClass} disabled={!changed || save.isPending} onClick={handleSave}>
          {t('Save :count changes', { count: changed })}
        </button>
      </div>
      <div className="mb-3 flex flex-wrap items-center gap-4">
        <input
          type="search"
          className={`${inputClass} max-w-sm`}
          placeholder={t('Search lines')}
          aria-label={t('Search lines')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        <label className="inline-flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            checked={onlyUntranslated}
            onChange={(e) => {
              setOnlyUntranslated(e.target.checked);
              setPage(1);
            }}
          />
          {t('Only untranslated')}
        </label>
        {data && (
          <span className="text-sm text-fg-muted">
            {t(':translated of :total lines translated', { translated: data.localization.translated, total: data.localization.total })}
          </span>
        )}
      </div>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-divider">
            <th className="p-2">{t('English')}</th>
            <th className="p-2">{t('Translation')}</th>
          </tr>
        </thead>
        <tbody>
          {(data?.pagination.data ?? []).map((line) => (
            <LineRow key={line.key} line={line} draft={drafts[line.key]} onChange={(value) => setDrafts((d) => ({ ...d, [line.key]: value }))} />
          ))}
        </tbody>
      </table>
      {data && <Pager page={data.pagination.current_page} lastPage={data.pagination.last_page} total={data.pagination.total} onPage={setPage} />}
    </section>
  );
}
