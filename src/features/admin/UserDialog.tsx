import { useState } from 'react';
import { useTrans } from '../../i18n/use-trans';
import { ModalDialog } from '../../ui/Dialog';
import { TextField } from '../../ui/form/TextField';
import { useAdminUser, usePermissionCatalogue, useRoles, useSaveUser } from './api';
import { useAdminSave } from './use-admin-save';
import { FormButtons } from '../../ui/form/FormButtons';

const MB = 1024 * 1024;

/** Create a user, or edit one: profile, roles, direct permissions and a space override. */
export function UserDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTrans();
  const user = useAdminUser(id);
  const roles = useRoles();
  const catalogue = usePermissionCatalogue();
  if (id !== null && !user.data) return null;
  return (
    <ModalDialog title={id === null ? t('Add user') : t('Edit user')} isOpen onOpenChange={(open) => !open && onClose()}>
      <UserForm
        key={id ?? 'new'}
        id={id}
        initial={user.data ?? null}
        roles={(roles.data ?? []).filter((r) => r.type === 'sitewide' && !r.guests)}
        permissions={(catalogue.data ?? []).map((p) => p.name)}
        onClose={onClose}
      />
    </ModalDialog>
  );
}

interface Initial {
  email: string;
  first_name: string | null;
  last_name: string | null;
  roles: { id: number }[];
  permissions: { name: string; restrictions: { name: string; value: string | number | boolean | null }[] }[];
  space: number | null;
}

function UserForm({
  id,
  initial,
  roles,
  permissions,
  onClose,
}: {
  id: number | null;
  initial: Initial | null;
  roles: { id: number; name: string; default: boolean }[];
  permissions: string[];
  onClose: () => void;
}) {
  const { t } = useTrans();
  const save = useAdminSave(useSaveUser(id), {
    done: id === null ? t('Created user') : t('Updated user'),
    onSaved: onClose,
    fields: ['email', 'password'],
    // Setting a password or email, or granting admin, asks the admin's own password first (the server says when).
    withPassword: (body, currentPassword) => ({ ...body, current_password: currentPassword }),
  });
  const [email, setEmail] = useState(initial?.email ?? '');
  const [firstName, setFirstName] = useState(initial?.first_name ?? '');
  const [lastName, setLastName] = useState(initial?.last_name ?? '');
  const [password, setPassword] = useState('');
  const [roleIds, setRoleIds] = useState<Set<number>>(new Set(initial ? initial.roles.map((r) => r.id) : roles.filter((r) => r.default).map((r) => r.id)));
  const [direct, setDirect] = useState<Set<string>>(
    new Set((initial?.permissions ?? []).filter((p) => p.name !== 'files.create' || !p.restrictions.length).map((p) => p.name)),
  );
  const [space, setSpace] = useState(initial?.space !== null && initial?.space !== undefined ? String(initial.space / MB) : '');

  const flip = <T,>(set: Set<T>, value: T) => {
    const next = new Set(set);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    return next;
  };

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const body = {
      email,
      first_name: firstName || null,
      last_name: lastName || null,
      ...(password ? { password } : {}),
      roles: [...roleIds],
      permissions: [...direct].map((name) => ({ name })),
      space: space.trim() === '' ? null : Math.round(Number(space) * MB),
    };
    save.submit(id === null ? { ...body, password } : body);
  };

  return (
    <>
      <form onSubmit={handleSubmit} className="flex max-h-[70vh] flex-col gap-3 overflow-y-auto">
        <TextField label={t('Email')} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} error={save.error('email')} />
        <div className="grid grid-cols-2 gap-2">
          <TextField label={t('First name')} value={firstName} onChange={(e) => setFirstName(e.target.value)} error={save.error('first_name')} />
          <TextField label={t('Last name')} value={lastName} onChange={(e) => setLastName(e.target.value)} error={save.error('last_name')} />
        </div>
        <TextField
          label={t('Password')}
          type="password"
          autoComplete="new-password"
          required={id === null}
          description={id === null ? undefined : t('Leave empty to keep the current password.')}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={save.error('password')}
        />
        <fieldset>
          <legend className="mb-1 text-sm font-medium">{t('Roles')}</legend>
          {roles.map((role) => (
            <label key={role.id} className="mr-3 inline-flex items-center gap-1 text-sm">
              <input type="checkbox" checked={roleIds.has(role.id)} onChange={() => setRoleIds((s) => flip(s, role.id))} />
              {role.name}
            </label>
          ))}
          {save.error('roles') && <p className="text-sm text-danger">{save.error('roles')}</p>}
        </fieldset>
        <details>
          <summary className="cursor-pointer text-sm font-medium">{t('Direct permissions')}</summary>
          <div className="mt-1 grid grid-cols-2 gap-1">
            {permissions.map((name) => (
              <label key={name} className="inline-flex items-center gap-1 text-xs">
                <input type="checkbox" checked={direct.has(name)} onChange={() => setDirect((s) => flip(s, name))} />
                {name}
              </label>
            ))}
          </div>
        </details>
        <TextField
          label={t('Storage space (MB)')}
          type="number"
          min={0}
          description={t('Empty: the role or site default.')}
          value={space}
          onChange={(e) => setSpace(e.target.value)}
          error={save.error('space')}
        />
        <FormButtons onCancel={onClose} pending={save.isPending} />
      </form>
      {/* Outside the form: React sends the dialog's submit up through the portal too. */}
      {save.dialog}
    </>
  );
}
