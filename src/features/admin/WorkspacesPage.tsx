import { useState } from 'react';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { inputClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { useAdminWorkspaces, useDeleteWorkspace, type TableQuery } from './api';
import { formatDate, Pager } from './Pager';

/** Every workspace with its owner and member count. */
export function WorkspacesPage() {
  const { t } = useTrans();
  const [query, setQuery] = useState<TableQuery>({ page: 1 });
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
          onChange={(e) => setQuery({ page: 1, ...(e.target.value ? { query: e.target.value } : {}) })}
        />
      </div>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-divider">
            <th className="p-2">{t('Name')}</th>
            <th className="p-2">{t('Owner')}</th>
            <th className="p-2">{t('Members')}</th>
            <th className="p-2">{t('Created')}</th>
            <th className="p-2">{t('Actions')}</th>
          </tr>
        </thead>
        <tbody>
          {(workspaces.data?.data ?? []).map((w) => (
            <tr key={w.id} className="border-b border-divider">
              <td className="p-2">{w.name}</td>
              <td className="p-2">{w.owner_email}</td>
              <td className="p-2">{w.members_count}</td>
              <td className="p-2">{formatDate(w.created_at)}</td>
              <td className="p-2">
                <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(w)}>
                  {t('Delete')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {workspaces.data && (
        <Pager
          page={workspaces.data.current_page}
          lastPage={workspaces.data.last_page}
          total={workspaces.data.total}
          onPage={(page) => setQuery((q) => ({ ...q, page }))}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('Delete workspace')}
          body={t('Delete the workspace :name? Its files go to the owner’s trash.', { name: deleting.name })}
          confirmLabel={t('Delete')}
          isPending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => toast(t('Deleted workspace')),
              onError: (e) => toast.danger(getErrorMessage(e)),
              onSettled: () => setDeleting(null),
            })
          }
        />
      )}
    </section>
  );
}
