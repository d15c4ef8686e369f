import { useState } from 'react';
import { useTrans } from '../../i18n/use-trans';
import { inputClass } from '../../ui/form/field-classes';
import { useActivity, type ActivityQuery } from './api';
import { AdminTable } from './AdminTable';
import { formatDate } from './Pager';

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
      <AdminTable
        label={t('Activity log')}
        rows={activity.data?.data}
        isLoading={activity.isLoading}
        emptyText="Nothing has been logged yet"
        page={activity.data}
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
        columns={[
          { key: 'when', label: 'When', render: (row) => formatDate(row.created_at) },
          { key: 'who', label: 'Who', render: (row) => row.actor_label },
          { key: 'what', label: 'What', render: (row) => row.action },
          { key: 'subject', label: 'On what', render: (row) => row.subject_label ?? row.subject_type },
        ]}
      />
    </section>
  );
}
