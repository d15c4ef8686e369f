import { useState } from 'react';
import { useTrans } from '../../i18n/use-trans';
import { ModalDialog } from '../../ui/Dialog';
import { CheckboxField } from '../../ui/form/CheckboxField';
import { primaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { AdminTable } from './AdminTable';
import { useDeleteRole, usePermissionCatalogue, useRoles, useSaveRole } from './api';
import { useAdminSave } from './use-admin-save';
import { ConfirmDelete } from './ConfirmDelete';
import { FormButtons } from '../../ui/form/FormButtons';

type Role = NonNullable<ReturnType<typeof useRoles>['data']>[number];

/** Roles and their permissions, the guest role and the default role given at registration. */
export function RolesPage() {
  const { t } = useTrans();
  const roles = useRoles();
  const remove = useDeleteRole();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  return (
    <section>
      <div className="mb-4 flex items-center">
        <h1 className="mr-auto text-xl font-semibold">{t('Roles')}</h1>
        <button type="button" className={primaryButtonClass} onClick={() => setEditing('new')}>
          {t('Add role')}
        </button>
      </div>
      <AdminTable
        label={t('Roles')}
        rows={roles.data}
        isLoading={roles.isLoading}
        emptyText="No roles yet"
        columns={[
          {
            key: 'name',
            label: 'Name',
            render: (role) => (
              <>
                {role.name}
                {role.default && <span className="ml-2 rounded bg-primary/10 px-1 text-xs text-primary">{t('Default')}</span>}
                {role.guests && <span className="ml-2 rounded bg-fg/10 px-1 text-xs">{t('Guests')}</span>}
                {role.require_two_factor && <span className="ml-2 rounded bg-primary/10 px-1 text-xs text-primary">{t('Two-factor')}</span>}
              </>
            ),
          },
          { key: 'type', label: 'Type', render: (role) => (role.type === 'workspace' ? t('Workspace') : t('Site')) },
          { key: 'users', label: 'Users', render: (role) => role.users_count },
          { key: 'permissions', label: 'Permissions', render: (role) => <span className="text-xs">{role.permissions.map((p) => p.name).join(', ')}</span> },
        ]}
        actions={(role) => (
          <>
            <button type="button" className="text-primary hover:underline" onClick={() => setEditing(role)}>
              {t('Edit')}
            </button>
            <button type="button" className="text-danger hover:underline" onClick={() => setDeleting(role)}>
              {t('Delete')}
            </button>
          </>
        )}
      />
      {editing && <RoleDialog role={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDelete
          id={deleting.id}
          title={t('Delete role')}
          body={t('Delete the role :name? Its users lose its permissions.', { name: deleting.name })}
          success={t('Deleted role')}
          mutation={remove}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function RoleDialog({ role, onClose }: { role: Role | null; onClose: () => void }) {
  const { t } = useTrans();
  const catalogue = usePermissionCatalogue();
  const save = useAdminSave(useSaveRole(role?.id ?? null), {
    done: role ? t('Updated role') : t('Created role'),
    onSaved: onClose,
    fields: ['name'],
    // A role that starts carrying admin asks the admin's own password first.
    withPassword: (body, currentPassword) => ({ ...body, current_password: currentPassword }),
  });
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [type, setType] = useState<'sitewide' | 'workspace'>(role?.type ?? 'sitewide');
  const [isDefault, setDefault] = useState(role?.default ?? false);
  const [guests, setGuests] = useState(role?.guests ?? false);
  const [requireTwoFactor, setRequireTwoFactor] = useState(role?.require_two_factor ?? false);
  const [granted, setGranted] = useState<Set<string>>(new Set(role?.permissions.map((p) => p.name) ?? []));
  const groups = new Map<string, string[]>();
  for (const p of catalogue.data ?? []) groups.set(p.group, [...(groups.get(p.group) ?? []), p.name]);

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const kept = new Map((role?.permissions ?? []).map((p) => [p.name, p.restrictions]));
    const body = {
      name,
      description: description || null,
      type,
      default: isDefault,
      guests,
      require_two_factor: type === 'sitewide' && requireTwoFactor,
      permissions: [...granted].map((n) => ({ name: n, restrictions: kept.get(n) ?? [] })),
    };
    save.submit(body);
  };

  return (
    <ModalDialog title={role ? t('Edit role') : t('Add role')} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={handleSubmit} className="flex max-h-[70vh] flex-col gap-3 overflow-y-auto">
        <TextField label={t('Name')} required value={name} onChange={(e) => setName(e.target.value)} error={save.error('name')} />
        <TextField label={t('Description')} value={description} onChange={(e) => setDescription(e.target.value)} />
        <label className="text-sm">
          {t('Type')}{' '}
          <select
            value={type}
            onChange={(e) => setType(e.target.value === 'workspace' ? 'workspace' : 'sitewide')}
            className="rounded border border-divider bg-paper p-1"
          >
            <option value="sitewide">{t('Site')}</option>
            <option value="workspace">{t('Workspace')}</option>
          </select>
        </label>
        {type === 'sitewide' && (
          <div className="flex gap-4 text-sm">
            <CheckboxField label={t('Given to new registrations')} checked={isDefault} onChange={(e) => setDefault(e.target.checked)} />
            <CheckboxField label={t('Applies to guests')} checked={guests} onChange={(e) => setGuests(e.target.checked)} />
          </div>
        )}
        {type === 'sitewide' && !guests && (
          <div className="text-sm">
            <CheckboxField label={t('Require two-factor sign-in')} checked={requireTwoFactor} onChange={(e) => setRequireTwoFactor(e.target.checked)} />
            <p className="mt-1 text-xs text-fg-muted">
              {t('Users with this role who have no second factor set one up at their next sign-in and can do nothing else until they have.')}
            </p>
          </div>
        )}
        {[...groups].map(([group, names]) => (
          <fieldset key={group}>
            <legend className="text-sm font-medium">{group}</legend>
            <div className="grid grid-cols-2 gap-1">
              {names.map((n) => (
                <CheckboxField
                  key={n}
                  className="text-xs"
                  label={n}
                  checked={granted.has(n)}
                  onChange={() =>
                    setGranted((s) => {
                      const next = new Set(s);
                      if (next.has(n)) next.delete(n);
                      else next.add(n);
                      return next;
                    })
                  }
                />
              ))}
            </div>
          </fieldset>
        ))}
        <FormButtons onCancel={onClose} pending={save.isPending} />
      </form>
      {save.dialog}
    </ModalDialog>
  );
}
