import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import { useAdminUsers, useBulkUpdate, useDeleteUsers, useImpersonate, useResetTwoFactor, useSendReset, type UserQuery } from './api';
import { AdminTable } from './AdminTable';
import { formatBytes, formatDate } from './Pager';
import { usePasswordProof, type RetryWithPassword } from './PasswordProof';
import { UserDialog } from './UserDialog';

type Sort = NonNullable<UserQuery['orderBy']>;

/** Users: a paged, sortable, searchable table with actions on one user or a selection. */
export function UsersPage() {
  const { t } = useTrans();
  const navigate = useNavigate();
  const [query, setQuery] = useState<UserQuery>({ page: 1, perPage: 25, orderBy: 'created_at', orderDir: 'desc' });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [deleting, setDeleting] = useState<number[] | null>(null);
  const [resetting, setResetting] = useState<{ id: number; email: string } | null>(null);
  const users = useAdminUsers(query);
  const bulk = useBulkUpdate();
  const remove = useDeleteUsers();
  const reset = useSendReset();
  const impersonate = useImpersonate();
  const proof = usePasswordProof();
  const resetTwoFactor = useResetTwoFactor();

  const fail = (error: unknown) => toast.danger(getErrorMessage(error));
  const handleImpersonate = (id: number) =>
    impersonate.mutate(
      { id },
      {
        onSuccess: () => void navigate('/drive'),
        onError: (error) => {
          const retry: RetryWithPassword = (currentPassword, handlers) =>
            impersonate.mutate(
              { id, currentPassword },
              {
                onSuccess: () => {
                  handlers.onSuccess();
                  void navigate('/drive');
                },
                onError: handlers.onError,
              },
            );
          if (!proof.ask(error, retry)) fail(error);
        },
      },
    );
  const handleResetTwoFactor = (id: number) => {
    const done = (message: string) => toast(message);
    resetTwoFactor.mutate(
      { id },
      {
        onSuccess: ({ message }) => done(message),
        onError: (error) => {
          const retry: RetryWithPassword = (currentPassword, handlers) =>
            resetTwoFactor.mutate(
              { id, currentPassword },
              {
                onSuccess: ({ message }) => {
                  handlers.onSuccess();
                  done(message);
                },
                onError: handlers.onError,
              },
            );
          if (!proof.ask(error, retry)) fail(error);
        },
        onSettled: () => setResetting(null),
      },
    );
  };
  const handleDelete = (ids: number[]) => {
    const deleted = () => {
      toast(t('Deleted users'));
      setSelected(new Set());
    };
    remove.mutate(
      { ids },
      {
        onSuccess: deleted,
        onError: (error) => {
          const retry: RetryWithPassword = (currentPassword, handlers) =>
            remove.mutate(
              { ids, currentPassword },
              {
                onSuccess: () => {
                  handlers.onSuccess();
                  deleted();
                },
                onError: handlers.onError,
              },
            );
          if (!proof.ask(error, retry)) fail(error);
        },
        onSettled: () => setDeleting(null),
      },
    );
  };
  const handleBulk = (action: 'suspend' | 'unsuspend' | 'verify', ids: number[]) =>
    bulk.mutate({ ids, action }, { onSuccess: () => toast(t('Updated users')), onError: fail });

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
      <AdminTable
        label={t('Users')}
        rows={users.data?.data}
        isLoading={users.isLoading}
        emptyText="No users found"
        rowName={(user) => user.email}
        selected={selected}
        onSelectedChange={setSelected}
        sort={query}
        onSort={(orderBy, orderDir) => setQuery((q) => ({ ...q, page: 1, orderBy: orderBy as Sort, orderDir }))}
        page={users.data}
        onPage={(page) => setQuery((q) => ({ ...q, page }))}
        columns={[
          {
            key: 'name',
            label: 'Name',
            sortable: true,
            render: (user) => (
              <>
                {user.display_name}
                {user.suspended_at && <span className="ml-2 rounded bg-danger/10 px-1 text-xs text-danger">{t('Suspended')}</span>}
                {user.two_factor && <span className="ml-2 rounded bg-primary/10 px-1 text-xs text-primary">{t('Two-factor')}</span>}
              </>
            ),
          },
          { key: 'email', label: 'Email', sortable: true, render: (user) => user.email },
          { key: 'roles', label: 'Roles', render: (user) => user.roles.map((r) => r.name).join(', ') },
          {
            key: 'space_used',
            label: 'Space used',
            sortable: true,
            render: (user) => `${formatBytes(user.space_used)} / ${formatBytes(user.space_available)}`,
          },
          { key: 'created_at', label: 'Created', sortable: true, render: (user) => formatDate(user.created_at) },
          { key: 'last_active_at', label: 'Last active', sortable: true, render: (user) => formatDate(user.last_active_at) },
          { key: 'verified', label: 'Verified', render: (user) => (user.email_verified_at ? t('Yes') : t('No')) },
        ]}
        actions={(user) => (
          <>
            <button type="button" className="text-primary hover:underline" onClick={() => setEditing(user.id)}>
              {t('Edit')}
            </button>
            <button type="button" className="text-primary hover:underline" onClick={() => handleBulk(user.suspended_at ? 'unsuspend' : 'suspend', [user.id])}>
              {user.suspended_at ? t('Unsuspend') : t('Suspend')}
            </button>
            <button
              type="button"
              className="text-primary hover:underline"
              onClick={() => reset.mutate(user.id, { onSuccess: () => toast(t('Email sent')), onError: fail })}
            >
              {t('Send password reset')}
            </button>
            <button type="button" className="text-primary hover:underline" onClick={() => handleImpersonate(user.id)}>
              {t('Sign in as')}
            </button>
            {user.two_factor && (
              <button type="button" className="text-danger hover:underline" onClick={() => setResetting({ id: user.id, email: user.email })}>
                {t('Reset two-factor sign-in')}
              </button>
            )}
            <button type="button" className="text-danger hover:underline" onClick={() => setDeleting([user.id])}>
              {t('Delete')}
            </button>
          </>
        )}
      />
      {editing !== null && <UserDialog id={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          title={t('Delete users')}
          body={t('Delete :count users and all their files? This cannot be undone.', { count: deleting.length })}
          confirmLabel={t('Delete')}
          isPending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() => handleDelete(deleting)}
        />
      )}
      {resetting && (
        <ConfirmDialog
          title={t('Reset two-factor sign-in')}
          body={t(
            ':email loses the authenticator app, recovery codes and passkeys, and is signed out everywhere. They sign in with their password alone until they set two-factor sign-in up again.',
            { email: resetting.email },
          )}
          confirmLabel={t('Reset')}
          isPending={resetTwoFactor.isPending}
          onClose={() => setResetting(null)}
          onConfirm={() => handleResetTwoFactor(resetting.id)}
        />
      )}
      {proof.dialog}
    </section>
  );
}
