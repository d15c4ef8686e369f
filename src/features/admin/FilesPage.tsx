import { useState } from 'react';
import { getErrorMessage } from '../../api/errors';
import { resolveApiUrl } from '../../api/request';
import { useTrans } from '../../i18n/use-trans';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { inputClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { useAdminFiles, useDeleteFiles, type TableQuery } from './api';
import { formatBytes, formatDate, Pager } from './Pager';

/** Every entry in the system: owner, type, size, workspace, created; search, delete, download for support. */
export function FilesPage() {
  const { t } = useTrans();
  const [query, setQuery] = useState<TableQuery>({ page: 1 });
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
          onChange={(e) => setQuery({ page: 1, ...(e.target.value ? { query: e.target.value } : {}) })}
        />
      </div>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-divider">
              <th className="p-2">{t('Name')}</th>
              <th className="p-2">{t('Owner')}</th>
              <th className="p-2">{t('Type')}</th>
              <th className="p-2">{t('Size')}</th>
              <th className="p-2">{t('Workspace')}</th>
              <th className="p-2">{t('Created')}</th>
              <th className="p-2">{t('Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {(files.data?.data ?? []).map((file) => (
              <tr key={file.id} className="border-b border-divider">
                <td className="p-2">{file.name}</td>
                <td className="p-2">{file.owner_email}</td>
                <td className="p-2">{file.type}</td>
                <td className="p-2">{file.type === 'folder' ? '—' : formatBytes(file.file_size)}</td>
                <td className="p-2">{file.workspace_name ?? t('Private')}</td>
                <td className="p-2">{formatDate(file.created_at)}</td>
                <td className="p-2">
                  {file.type !== 'folder' && (
                    <a className="mr-2 text-primary hover:underline" href={resolveApiUrl(`admin/files/${file.id}/download`)}>
                      {t('Download')}
                    </a>
                  )}
                  <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(file)}>
                    {t('Delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {files.data && (
        <Pager page={files.data.current_page} lastPage={files.data.last_page} total={files.data.total} onPage={(page) => setQuery((q) => ({ ...q, page }))} />
      )}
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
