import type { ReactNode } from 'react';
import { useTrans } from '../../i18n/use-trans';
import { Spinner } from '../../ui/Spinner';
import { Pager } from './Pager';

export interface AdminColumn<T> {
  /** The list call's `orderBy` value when the column sorts, else any unique key. */
  key: string;
  label: string;
  sortable?: boolean;
  render: (row: T) => ReactNode;
}

export interface AdminSort {
  orderBy?: string | undefined;
  orderDir?: 'asc' | 'desc' | undefined;
}

interface PageInfo {
  current_page: number;
  last_page: number;
  total: number;
}

interface AdminTableProps<T extends { id: number }> {
  /** The table's accessible name. */
  label: string;
  columns: AdminColumn<T>[];
  rows: T[] | undefined;
  isLoading: boolean;
  emptyText: string;
  /** Names a row for its selection checkbox ("Select :name"). */
  rowName?: (row: T) => string;
  /** Actions in the last column; no column when absent. */
  actions?: (row: T) => ReactNode;
  sort?: AdminSort;
  onSort?: (orderBy: string, orderDir: 'asc' | 'desc') => void;
  page?: PageInfo | undefined;
  onPage?: (page: number) => void;
  /** Ids picked for bulk actions; checkboxes show only when given. */
  selected?: ReadonlySet<number>;
  onSelectedChange?: (ids: Set<number>) => void;
}

const STACKED_CELL =
  'max-md:flex max-md:gap-2 max-md:py-1 max-md:before:w-28 max-md:before:shrink-0 max-md:before:font-semibold max-md:before:text-fg-muted max-md:before:content-[attr(data-label)]';

/**
 * The admin area's one table: headers that sort (the first click ascending,
 * the next descending), numbered pages, loading and empty states, and
 * optional row selection for bulk actions. Pages keep their own query state
 * and calls; this draws them.
 */
export function AdminTable<T extends { id: number }>({
  label,
  columns,
  rows,
  isLoading,
  emptyText,
  rowName,
  actions,
  sort,
  onSort,
  page,
  onPage,
  selected,
  onSelectedChange,
}: AdminTableProps<T>) {
  const { t } = useTrans();
  const list = rows ?? [];
  const selectable = selected !== undefined && onSelectedChange !== undefined;
  const span = columns.length + (selectable ? 1 : 0) + (actions ? 1 : 0);
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelectedChange?.(next);
  };
  const nextDir = (key: string): 'asc' | 'desc' => (sort?.orderBy === key && sort.orderDir === 'asc' ? 'desc' : 'asc');

  return (
    <>
      {/* Below the mobile breakpoint each row stacks into a card, every cell led by its column's name,
          so no column is cut off at the screen's edge. */}
      <div className="overflow-x-auto">
        <table aria-label={label} aria-busy={isLoading || undefined} className="w-full text-left text-sm max-md:block">
          <thead className="max-md:sr-only">
            <tr className="border-b border-divider">
              {selectable && (
                <th className="p-2">
                  <input
                    type="checkbox"
                    aria-label={t('Select all')}
                    checked={list.length > 0 && list.every((r) => selected.has(r.id))}
                    onChange={(e) => onSelectedChange(e.target.checked ? new Set(list.map((r) => r.id)) : new Set())}
                  />
                </th>
              )}
              {columns.map((c) => (
                <th
                  key={c.key}
                  className="p-2"
                  aria-sort={c.sortable && sort?.orderBy === c.key ? (sort.orderDir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {c.sortable && onSort ? (
                    <button type="button" className="font-semibold hover:underline" onClick={() => onSort(c.key, nextDir(c.key))}>
                      {t(c.label)}
                    </button>
                  ) : (
                    t(c.label)
                  )}
                </th>
              ))}
              {actions && <th className="p-2">{t('Actions')}</th>}
            </tr>
          </thead>
          <tbody className="max-md:block">
            {list.length === 0 && (
              <tr className="max-md:block">
                <td colSpan={span} className="p-6 text-center text-fg-muted max-md:block">
                  {isLoading ? <Spinner label={t('Loading...')} /> : t(emptyText)}
                </td>
              </tr>
            )}
            {list.map((row) => (
              <tr key={row.id} className="border-b border-divider max-md:block max-md:py-2">
                {selectable && (
                  <td className="p-2 max-md:block max-md:py-1">
                    <input
                      type="checkbox"
                      aria-label={t('Select :name', { name: rowName ? rowName(row) : String(row.id) })}
                      checked={selected.has(row.id)}
                      onChange={() => toggle(row.id)}
                    />
                  </td>
                )}
                {columns.map((c) => (
                  <td key={c.key} data-label={t(c.label)} className={`p-2 ${STACKED_CELL}`}>
                    <span className="min-w-0 break-words">{c.render(row)}</span>
                  </td>
                ))}
                {actions && (
                  <td className="p-2 max-md:block max-md:py-1">
                    <span className="flex flex-wrap gap-2">{actions(row)}</span>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page && onPage && <Pager page={page.current_page} lastPage={page.last_page} total={page.total} onPage={onPage} />}
    </>
  );
}
