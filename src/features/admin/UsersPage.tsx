import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { useAdminUsers, useBulkUpdate, useDeleteUsers, useImpersonate, useSendReset, type UserQuery } from './api';
import { formatBytes, formatDate, Pager } from './Pager';
import { UserDialog } from './UserDialog';

type Sort = NonNullable<UserQuery['orderBy']>;
const columns: { key: Sort | null; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email' },
  { key: null, label: 'Roles' },
  { key: 'space_used', label: 'Space used' },
  { key: 'created_at', label: 'Created' },
  { key: 'last_active_at', label: 'Last active' },
  { key: null, label: 'Verified' },
];

/** Users: a paged, sortable, searchable table with actions on one user or a selection. */
export function UsersPage() {
  const { t } = useTrans();
  const navigate = useNavigate();
  const [query, setQuery] = useState<UserQuery>({ page: 1, perPage: 25, orderBy: 'created_at', orderDir: 'desc' });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const users = useAdminUsers(query);
  const bulk = useBulkUpdate();
  const remove = useDeleteUsers();
  const reset = useSendReset();
  const impersonate = useImpersonate();
  const rows = users.data?.data ?? [];

  const fail = (error: unknown) => toast.danger(getErrorMessage(error));
  const handleBulk = (action: 'suspend' | 'unsuspend' | 'verify', ids: number[]) =>
    bulk.mutate({ ids, action }, { onSuccess: () => toast(t('Updated users')), onError: fail });
  const handleSort = (key: Sort) => setQuery((q) => ({ ...q, page: 1, orderBy: key, orderDir: q.orderBy === key && q.orderDir === 'asc' ? 'desc' : 'asc' }));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-xl font-semibold">{t('Users')}</h1>
        <input
          type="search"
          aria-label={t('Search users')}
          placeholder={t('Search users')}
          className={`${inputClass} max-w-xs`}
          onChange={(e) => setQuery((q) => ({ ...q, page: 1, query: e.target.value || undefined }))}
        />
        <button type="button" className={primaryButtonClass} onClick={() => setEditing('new')}>
          {t('Add user')}
        </button>
      </div>
      {selected.size > 0 && (
        <div role="toolbar" aria-label={t('Selected users')} className="mb-3 flex flex-wrap items-center gap-2 rounded bg-fg/5 p-2 text-sm">
          <span>{t(':count selected', { count: selected.size })}</span>
          <button type="button" className={secondaryButtonClass} onClick={() => handleBulk('suspend', [...selected])}>
            {t('Suspend')}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => handleBulk('unsuspend', [...selected])}>
            {t('Unsuspend')}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => handleBulk('verify', [...selected])}>
            {t('Verify email')}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setDeleting([...selected])}>
            {t('Delete')}
          </button>
        </div>
      )}
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-divider">
              <th className="p-2">
                <input
                  type="checkbox"
                  aria-label={t('Select all')}
                  checked={rows.length > 0 && rows.every((r) => selected.has(r.id))}
                  onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())}
                />
              </th>
              {columns.map((c) => (
                <th
                  key={c.label}
                  className="p-2"
                  aria-sort={c.key && query.orderBy === c.key ? (query.orderDir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {c.key ? (
                    <button type="button" className="font-semibold hover:underline" onClick={() => handleSort(c.key!)}>
                      {t(c.label)}
                    </button>
                  ) : (
                    t(c.label)
                  )}
                </th>
              ))}
              <th className="p-2">{t('Actions')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => (
              <tr key={user.id} className="border-b border-divider">
                <td className="p-2">
                  <input
                    type="checkbox"
                    aria-label={t('Select :name', { name: user.email })}
                    checked={selected.has(user.id)}
                    onChange={() => toggle(user.id)}
                  />
                </td>
                <td className="p-2">
                  {user.display_name}
                  {user.suspended_at && <span className="ml-2 rounded bg-danger/10 px-1 text-xs text-danger">{t('Suspended')}</span>}
                </td>
                <td className="p-2">{user.email}</td>
                <td className="p-2">{user.roles.map((r) => r.name).join(', ')}</td>
                <td className="p-2">
                  {formatBytes(user.space_used)} / {formatBytes(user.space_available)}
                </td>
                <td className="p-2">{formatDate(user.created_at)}</td>
                <td className="p-2">{formatDate(user.last_active_at)}</td>
                <td className="p-2">{user.email_verified_at ? t('Yes') : t('No')}</td>
                <td className="p-2">
                  <span className="flex flex-wrap gap-1">
                    <button type="button" className="text-primary hover:underline" onClick={() => setEditing(user.id)}>
                      {t('Edit')}
                    </button>
                    <button
                      type="button"
                      className="text-primary hover:underline"
                      onClick={() => handleBulk(user.suspended_at ? 'unsuspend' : 'suspend', [user.id])}
                    >
                      {user.suspended_at ? t('Unsuspend') : t('Suspend')}
                    </button>
                    <button
                      type="button"
                      className="text-primary hover:underline"
                      onClick={() => reset.mutate(user.id, { onSuccess: () => toast(t('Email sent')), onError: fail })}
                    >
                      {t('Send password reset')}
                    </button>
                    <button
                      type="button"
                      className="text-primary hover:underline"
                      onClick={() => impersonate.mutate(user.id, { onSuccess: () => void navigate('/drive'), onError: fail })}
                    >
                      {t('Sign in as')}
                    </button>
                    <button type="button" className="text-danger hover:underline" onClick={() => setDeleting([user.id])}>
                      {t('Delete')}
                    </button>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {users.data && (
        <Pager page={users.data.current_page} lastPage={users.data.last_page} total={users.data.total} onPage={(page) => setQuery((q) => ({ ...q, page }))} />
      )}
      {editing !== null && <UserDialog id={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t('Delete users')}
          body={t('Delete :count users and all their files? This cannot be undone.', { count: deleting.length })}
          confirmLabel={t('Delete')}
          isPending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting, {
              onSuccess: () => {
                toast(t('Deleted users'));
                setDeleting(null);
                setSelected(new Set());
              },
              onError: (error) => {
                fail(error);
                setDeleting(null);
              },
            })
          }
        />
      )}
    </section>
  );
}
