import { useState, type FormEvent } from 'react';
import { getErrorMessage, getFieldError } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from './two-factor-api';

/** Passkeys (issue 36): several per account, each named; one signs in without a password, or answers the second step. */
export function PasskeysPanel() {
  const { t } = useTrans();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(t('This field is required'));
    add.mutate(name.trim(), {
      onSuccess: () => {
        setName('');
        toast.positive(t('Passkey added'));
      },
      // The browser's own refusal (cancelled, no authenticator) is not the server's: a general line.
      onError: (failure) => {
        const message = getFieldError(failure, 'passkey') ?? getFieldError(failure, 'name');
        if (message) setError(message);
        else toast.danger(getErrorMessage(failure, t('The passkey was not created.')));
      },
    });
  };

  const saveName = (event: FormEvent) => {
    event.preventDefault();
    if (!editing?.name.trim()) return;
    rename.mutate({ id: editing.id, name: editing.name.trim() }, { onSuccess: () => setEditing(null), onError: (f) => toast.danger(getErrorMessage(f)) });
  };

  return (
    <div className="mt-6 grid gap-3 border-t border-divider pt-4">
      <h3 className="font-medium">{t('Passkeys')}</h3>
      <p className="text-sm text-fg-muted">{t('A passkey signs you in without a password, with your fingerprint, face or device PIN.')}</p>
      <ul aria-label={t('Passkeys')} className="grid gap-2">
        {(passkeys.data ?? []).map((passkey) => (
          <li key={passkey.id} className="flex flex-wrap items-center gap-2 text-sm">
            {editing?.id === passkey.id ? (
              <form onSubmit={saveName} className="flex flex-1 items-end gap-2">
                <TextField label={t('Passkey name')} value={editing.name} onChange={(e) => setEditing({ id: passkey.id, name: e.target.value })} />
                <button type="submit" className={primaryButtonClass}>
                  {t('Save')}
                </button>
              </form>
            ) : (
              <>
                <span className="flex-1 font-medium">{passkey.name}</span>
                <button type="button" className={secondaryButtonClass} onClick={() => setEditing({ id: passkey.id, name: passkey.name })}>
                  {t('Rename')}
                </button>
                <button
                  type="button"
                  aria-label={t('Remove :name', { name: passkey.name })}
                  className={dangerButtonClass}
                  onClick={() => remove.mutate(passkey.id, { onError: (f) => toast.danger(getErrorMessage(f)) })}
                >
                  {t('Remove')}
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end">
        <TextField
          label={t('Passkey name')}
          placeholder={t('For example, work laptop')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setError(undefined);
          }}
          error={error}
        />
        <button type="submit" disabled={add.isPending} className={primaryButtonClass}>
          {t('Add a passkey')}
        </button>
      </form>
    </div>
  );
}
