import { useState } from 'react';
import { getErrorMessage } from '../../api/errors';
import { resolveApiUrl } from '../../api/request';
import { useTrans } from '../../i18n/use-trans';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { inputClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { AdminTable } from './AdminTable';
import { useAdminFiles, useDeleteFiles, type FileQuery } from './api';
import { formatBytes, formatDate } from './Pager';

type Sort = NonNullable<FileQuery['orderBy']>;

/** Every entry in the system: owner, type, size, workspace, created; search, delete, download for support. */
export function FilesPage() {
  const { t } = useTrans();
  const [query, setQuery] = useState<FileQuery>({ page: 1, orderBy: 'created_at', orderDir: 'desc' });
  const [deleting, setDeleting] = useState<{ id: number; name: string } | null>(null);
  const files = useAdminFiles(query);
  const remove = useDeleteFiles();
  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-semibold">{t('Files')}</h1>
        <input
          type="search"
          aria-label={t('Search files')}
          placeholder={t('Search files')}
          className={`${inputClass} max-w-xs`}
          onChange={(e) => setQuery((q) => ({ ...q, page: 1, query: e.target.value || undefined }))}
        />
      </div>
      <AdminTable
        label={t('Files')}
        rows={files.data?.data}
        isLoading={files.isLoading}
        emptyText="No files"
        sort={query}
        onSort={(orderBy, orderDir) => setQuery((q) => ({ ...q, page: 1, orderBy: orderBy as Sort, orderDir }))}
        page={files.data}
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
        columns={[
          { key: 'name', label: 'Name', sortable: true, render: (file) => file.name },
          { key: 'owner', label: 'Owner', render: (file) => file.owner_email },
          { key: 'type', label: 'Type', sortable: true, render: (file) => file.type },
          { key: 'file_size', label: 'Size', sortable: true, render: (file) => (file.type === 'folder' ? '—' : formatBytes(file.file_size)) },
          { key: 'workspace', label: 'Workspace', render: (file) => file.workspace_name ?? t('Private') },
          { key: 'created_at', label: 'Created', sortable: true, render: (file) => formatDate(file.created_at) },
        ]}
        actions={(file) => (
          <>
            {file.type !== 'folder' && (
              <a className="text-primary hover:underline" href={resolveApiUrl(`admin/files/${file.id}/download`)}>
                {t('Download')}
              </a>
            )}
            <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(file)}>
              {t('Delete')}
            </button>
          </>
        )}
      />
      {deleting && (
        <ConfirmDialog
          title={t('Delete forever')}
          body={t('Delete :name forever? This cannot be undone.', { name: deleting.name })}
          confirmLabel={t('Delete')}
          isPending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate([deleting.id], {
              onSuccess: () => toast(t('Deleted files')),
              onError: (e) => toast.danger(getErrorMessage(e)),
              onSettled: () => setDeleting(null),
            })
          }
        />
      )}
    </section>
  );
}
