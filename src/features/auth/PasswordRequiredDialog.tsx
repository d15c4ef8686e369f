import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '../../ui/zod';
import type { Bootstrap } from '../../api/bootstrap-types';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import type { TranslateFn } from '../../i18n/use-trans';
import { ModalDialog } from '../../ui/Dialog';
import { primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useSocialConnect } from './api';

const schema = (t: TranslateFn) => z.object({ password: z.string().min(1, t('This field is required')) });

/** Spec §2 dialog 'Password required': link a provider to the existing account with the same email. */
export function PasswordRequiredDialog({
  email,
  onClose,
  onConnected,
  onSecondStep,
}: {
  email: string | null;
  onClose: () => void;
  onConnected: (data: Bootstrap) => void;
  /** The password was right and the account has a second factor: its step comes next. */
  onSecondStep: () => void;
}) {
  const { t } = useTrans();
  const connect = useSocialConnect();
  const resolver = useMemo(() => zodResolver(schema(t)), [t]);
  const { register, handleSubmit, setError, formState } = useForm<{ password: string }>({ resolver, defaultValues: { password: '' } });

  const handleConnect = handleSubmit((values) =>
    connect.mutate(values, {
      onSuccess: ({ bootstrapData, two_factor }) => (two_factor ? onSecondStep() : onConnected(bootstrapData)),
      onError: (error) => {
        if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
      },
    }),
  );

  return (
    <ModalDialog title={t('Password required')} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={handleConnect} noValidate className="space-y-4">
        <p className="text-sm text-fg-muted">
          {email
            ? t('An account with :email already exists. Enter its password to connect it.', { email })
            : t('An account with this email already exists. Enter its password to connect it.')}
        </p>
        <TextField
          label={t('Password')}
          type="password"
          autoComplete="current-password"
          autoFocus
          error={formState.errors.password?.message}
          {...register('password')}
        />
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={secondaryButtonClass}>
            {t('Cancel')}
          </button>
          <button type="submit" disabled={connect.isPending} className={primaryButtonClass}>
            {t('Connect')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
