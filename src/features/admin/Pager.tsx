import { formatBytes as formatSize } from '../../i18n/format-size';
import { useTrans } from '../../i18n/use-trans';
import { secondaryButtonClass } from '../../ui/form/field-classes';

/** Numbered pages, the admin tables' listing convention. */
export function Pager({ page, lastPage, total, onPage }: { page: number; lastPage: number; total: number; onPage: (page: number) => void }) {
  const { t } = useTrans();
  return (
    <div className="mt-3 flex items-center justify-between text-sm">
      <span>{t(':count result|:count results', { count: total })}</span>
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

/** Sizes as the rest of the app shows them (spec §9), with no limit shown as ∞. */
export function formatBytes(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined ? '∞' : formatSize(bytes);
}

export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
