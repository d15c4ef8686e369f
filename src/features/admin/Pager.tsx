import { useTrans } from '../../i18n/use-trans';
import { secondaryButtonClass } from '../../ui/form/field-classes';

/** Numbered pages, the admin tables' listing convention. */
export function Pager({ page, lastPage, total, onPage }: { page: number; lastPage: number; total: number; onPage: (page: number) => void }) {
  const { t } = useTrans();
  return (
    <div className="mt-3 flex items-center justify-between text-sm">
      <span>{t(':count results', { count: total })}</span>
      <span className="flex items-center gap-2">
        <button type="button" className={secondaryButtonClass} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('Previous')}
        </button>
        <span>{t('Page :page of :last', { page, last: lastPage })}</span>
        <button type="button" className={secondaryButtonClass} disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
          {t('Next')}
        </button>
      </span>
    </div>
  );
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '∞';
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
