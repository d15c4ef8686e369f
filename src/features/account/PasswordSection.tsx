import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from '../../ui/zod';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import type { TranslateFn } from '../../i18n/use-trans';
import { primaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { PASSWORD_MIN } from '../auth/registration';
import { useChangePassword } from './api';
import { SettingsSection } from './SettingsSection';

const passwordSchema = (t: TranslateFn) =>
  z
    .object({
      current_password: z.string().min(1, t('This field is required')),
      new_password: z.string().min(PASSWORD_MIN, t('Must be at least :min characters', { min: PASSWORD_MIN })),
      new_password_confirmation: z.string().min(1, t('This field is required')),
    })
    .refine((v) => v.new_password === v.new_password_confirmation, {
      path: ['new_password_confirmation'],
      message: t('The password confirmation does not match.'),
    });
type PasswordForm = z.infer<ReturnType<typeof passwordSchema>>;

const EMPTY: PasswordForm = { current_password: '', new_password: '', new_password_confirmation: '' };

/** Spec §2 'Update Password': all three fields required; toast 'Password changed'. */
export function PasswordSection() {
  const { t } = useTrans();
  const change = useChangePassword();
  const resolver = useMemo(() => zodResolver(passwordSchema(t)), [t]);
  const { register, handleSubmit, setError, reset, formState } = useForm<PasswordForm>({ resolver, defaultValues: EMPTY });
  const { errors } = formState;

  const handleChange = handleSubmit(async (values) => {
    try {
      const { message } = await change.mutateAsync(values);
      toast.positive(message || 'Password changed');
      reset(EMPTY);
    } catch (error) {
      if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
    }
  });

  return (
    <SettingsSection id="password" title={t('Update Password')}>
      <form onSubmit={handleChange} noValidate className="grid gap-4">
        <TextField
          label={t('Current password')}
          type="password"
          autoComplete="current-password"
          error={errors.current_password?.message}
          {...register('current_password')}
        />
        <TextField label={t('New password')} type="password" autoComplete="new-password" error={errors.new_password?.message} {...register('new_password')} />
        <TextField
          label={t('Confirm new password')}
          type="password"
          autoComplete="new-password"
          error={errors.new_password_confirmation?.message}
          {...register('new_password_confirmation')}
        />
        <div>
          <button type="submit" disabled={formState.isSubmitting} className={primaryButtonClass}>
            {t('Update Password')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
