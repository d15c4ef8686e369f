import { useState } from 'react';
import { useTrans } from '../../i18n/use-trans';
import { inputClass } from '../../ui/form/field-classes';
import { AdminTable } from './AdminTable';
import { ConfirmDelete } from './ConfirmDelete';
import { useAdminWorkspaces, useDeleteWorkspace, type WorkspaceQuery } from './api';
import { formatDate } from './Pager';

type Sort = NonNullable<WorkspaceQuery['orderBy']>;

/** Every workspace with its owner and member count. */
export function WorkspacesPage() {
  const { t } = useTrans();
  const [query, setQuery] = useState<WorkspaceQuery>({ page: 1, orderBy: 'created_at', orderDir: 'desc' });
  const [deleting, setDeleting] = useState<{ id: number; name: string } | null>(null);
  const workspaces = useAdminWorkspaces(query);
  const remove = useDeleteWorkspace();
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-semibold">{t('Workspaces')}</h1>
        <input
          type="search"
          aria-label={t('Search workspaces')}
          placeholder={t('Search workspaces')}
          className={`${inputClass} max-w-xs`}
          onChange={(e) => setQuery((q) => ({ ...q, page: 1, query: e.target.value || undefined }))}
        />
      </div>
      <AdminTable
        label={t('Workspaces')}
        rows={workspaces.data?.data}
        isLoading={workspaces.isLoading}
        emptyText="No workspaces"
        sort={query}
        onSort={(orderBy, orderDir) => setQuery((q) => ({ ...q, page: 1, orderBy: orderBy as Sort, orderDir }))}
        page={workspaces.data}
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
        columns={[
          { key: 'name', label: 'Name', sortable: true, render: (w) => w.name },
          { key: 'owner', label: 'Owner', render: (w) => w.owner_email },
          { key: 'members', label: 'Members', render: (w) => w.members_count },
          { key: 'created_at', label: 'Created', sortable: true, render: (w) => formatDate(w.created_at) },
        ]}
        actions={(w) => (
          <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(w)}>
            {t('Delete')}
          </button>
        )}
      />
      {deleting && (
        <ConfirmDelete
          id={deleting.id}
          title={t('Delete workspace')}
          body={t('Delete the workspace :name? Its files go to the owner’s trash.', { name: deleting.name })}
          success={t('Deleted workspace')}
          mutation={remove}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
