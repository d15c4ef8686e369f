import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTrans } from '../../../i18n/use-trans';
import { inputClass } from '../../../ui/form/field-classes';
import { Icon } from '../../../ui/icons';
import type { EntryType } from '../api/types';
import { useDebounced } from '../hooks/use-debounced';
import { TYPE_AHEAD_RESET } from '../lib/type-ahead';
import { DRIVE_VIEWS, ROOT_HASH } from '../lib/views';
import type { SearchFilters } from '../lib/views';
import { ListingPage } from './ListingPage';

const TYPES: { id: EntryType; label: string }[] = [
  { id: 'folder', label: 'Folders' },
  { id: 'image', label: 'Images' },
  { id: 'video', label: 'Videos' },
  { id: 'audio', label: 'Audio' },
  { id: 'pdf', label: 'PDF documents' },
  { id: 'text', label: 'Text documents' },
  { id: 'word', label: 'Word documents' },
  { id: 'spreadsheet', label: 'Spreadsheets' },
  { id: 'powerpoint', label: 'Presentations' },
  { id: 'archive', label: 'Archives' },
  { id: 'sql', label: 'SQL backups' },
];
const isType = (value: string | null): value is EntryType => TYPES.some((t) => t.id === value);

/** The filter controls' values (the query box has its own, debounced). */
interface Shown {
  type: string;
  modifiedFrom: string;
  modifiedTo: string;
  content: boolean;
}

/** /drive/search: a query box and filters (type, modified range), kept in the address. */
export function SearchView() {
  const { t } = useTrans();
  const [params, setParams] = useSearchParams();
  const [text, setText] = useState(params.get('query') ?? '');
  // Typing settles for the type-ahead reset time (spec §9) before a request.
  const query = useDebounced(text, TYPE_AHEAD_RESET);
  const type = params.get('type');
  const filters: SearchFilters = {
    query: params.get('query') ?? '',
    type: isType(type) ? type : undefined,
    modifiedFrom: params.get('modifiedFrom') ?? undefined,
    modifiedTo: params.get('modifiedTo') ?? undefined,
    content: params.get('content') !== '0',
  };

  // From the address as it is now, not the params of the render that made this closure: the debounced query's
  // update and a filter's change would otherwise each undo the other (a stale snapshot; e2e saw the checkbox
  // spring back when the query settled after the click).
  const setParam = (name: string, value: string) =>
    setParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  // The filters answer a click at once: the address they are kept in changes in the router's transition, which
  // commits only after the new listing has rendered, and a control bound to the address alone kept its old value
  // until then (e2e: the checkbox still checked after the click on a loaded machine).
  const [shown, setShown] = useShown<Shown>({
    type: filters.type ?? '',
    modifiedFrom: filters.modifiedFrom ?? '',
    modifiedTo: filters.modifiedTo ?? '',
    content: filters.content !== false,
  });
  const setFilter = <K extends keyof Shown>(name: K, value: Shown[K], inAddress: string) => {
    const next: Shown = { ...shown };
    next[name] = value;
    setShown(next);
    setParam(name, inAddress);
  };

  useEffect(() => {
    if ((params.get('query') ?? '') !== query) setParam('query', query);
    // setParam is stable in effect; only the settled text matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);

  return (
    <ListingPage view={DRIVE_VIEWS.search} folderHash={ROOT_HASH} search={filters}>
      <form role="search" onSubmit={(event) => event.preventDefault()} className="flex flex-wrap items-end gap-3 px-4 py-3">
        <label className="relative min-w-56 flex-1">
          <span className="sr-only">{t('Search')}</span>
          <Icon name="search" className="pointer-events-none absolute left-3 top-1/2 size-5 -translate-y-1/2 text-fg-muted" />
          <input
            type="search"
            autoFocus
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={t('Search files and folders')}
            className={`${inputClass} pl-10`}
          />
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-fg-muted">{t('Type')}</span>
          <select value={shown.type} onChange={(event) => setFilter('type', event.target.value, event.target.value)} className={inputClass}>
            <option value="">{t('Any type')}</option>
            {TYPES.map((option) => (
              <option key={option.id} value={option.id}>
                {t(option.label)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-fg-muted">{t('Modified after')}</span>
          <input
            type="date"
            value={shown.modifiedFrom}
            onChange={(event) => setFilter('modifiedFrom', event.target.value, event.target.value)}
            className={inputClass}
          />
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-fg-muted">{t('Modified before')}</span>
          <input
            type="date"
            value={shown.modifiedTo}
            onChange={(event) => setFilter('modifiedTo', event.target.value, event.target.value)}
            className={inputClass}
          />
        </label>
        <label className="flex items-center gap-2 self-center text-sm">
          <input type="checkbox" checked={shown.content} onChange={(event) => setFilter('content', event.target.checked, event.target.checked ? '' : '0')} />
          {t('Search inside files')}
        </label>
      </form>
    </ListingPage>
  );
}

/**
 * What the controls show: set at once by a change, and taken again from the address whenever the address says
 * something new (back, forward, a link), compared field by field so a re-render with equal values keeps it.
 */
function useShown<T extends object>(fromAddress: T): [T, (next: T) => void] {
  const [shown, setShown] = useState(fromAddress);
  const [seen, setSeen] = useState(fromAddress);
  const changed = (Object.keys(fromAddress) as (keyof T)[]).some((key) => fromAddress[key] !== seen[key]);
  if (changed) {
    setSeen(fromAddress);
    setShown(fromAddress);
  }
  return [changed ? fromAddress : shown, setShown];
}
