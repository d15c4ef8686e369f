import { useState } from 'react';
import { useTrans } from '../../i18n/use-trans';
import { inputClass } from '../../ui/form/field-classes';
import { useActivity, type ActivityQuery } from './api';
import { formatDate, Pager } from './Pager';

/** The log of admin actions: who, what, when, on what. */
export function ActivityPage() {
  const { t } = useTrans();
  const [query, setQuery] = useState<ActivityQuery>({ page: 1 });
  const activity = useActivity(query);
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-semibold">{t('Activity log')}</h1>
        <input
          type="search"
          aria-label={t('Search the log')}
          placeholder={t('Search the log')}
          className={`${inputClass} max-w-xs`}
          onChange={(e) => setQuery({ page: 1, ...(e.target.value ? { query: e.target.value } : {}) })}
        />
      </div>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-divider">
            <th className="p-2">{t('When')}</th>
            <th className="p-2">{t('Who')}</th>
            <th className="p-2">{t('What')}</th>
            <th className="p-2">{t('On what')}</th>
          </tr>
        </thead>
        <tbody>
          {(activity.data?.data ?? []).map((row) => (
            <tr key={row.id} className="border-b border-divider">
              <td className="p-2">{formatDate(row.created_at)}</td>
              <td className="p-2">{row.actor_label}</td>
              <td className="p-2">{row.action}</td>
              <td className="p-2">{row.subject_label ?? row.subject_type}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {activity.data && (
        <Pager
          page={activity.data.current_page}
          lastPage={activity.data.last_page}
          total={activity.data.total}
          onPage={(page) => setQuery((q) => ({ ...q, page }))}
        />
      )}
    </section>
  );
}
