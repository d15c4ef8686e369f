import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { z } from '../../ui/zod';
import { requiredEmail } from './email-field';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import type { TranslateFn } from '../../i18n/use-trans';
import { primaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useResetPassword } from './api';
import { PASSWORD_MIN } from './registration';

export const PASSWORD_RESET_DONE = 'Your password has been reset!';

const resetSchema = (t: TranslateFn) =>
  z
    .object({
      email: requiredEmail(t),
      password: z.string().min(PASSWORD_MIN, t('Must be at least :min characters', { min: PASSWORD_MIN })),
      password_confirmation: z.string().min(1, t('This field is required')),
    })
    .refine((v) => v.password === v.password_confirmation, {
      path: ['password_confirmation'],
      message: t('The password confirmation does not match.'),
    });
type ResetForm = z.infer<ReturnType<typeof resetSchema>>;

/** Spec §2 "Reset password" (/password/reset/{token}); §4: go to /login with the message. */
export function ResetPasswordPage() {
  const { t } = useTrans();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const reset = useResetPassword();
  const resolver = useMemo(() => zodResolver(resetSchema(t)), [t]);
  const { register, handleSubmit, setError, formState } = useForm<ResetForm>({
    resolver,
    defaultValues: { email: params.get('email') ?? '', password: '', password_confirmation: '' },
  });

  const handleReset = handleSubmit((values) =>
    reset.mutate(
      { token, ...values },
      {
        onSuccess: ({ message }) => {
          toast.positive(message || PASSWORD_RESET_DONE);
          void navigate('/login', { replace: true });
        },
        onError: (error) => {
          if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
        },
      },
    ),
  );

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t('Reset password')}</h1>
      <form onSubmit={handleReset} noValidate className="space-y-4">
        <TextField label={t('Email')} type="email" autoComplete="email" error={formState.errors.email?.message} {...register('email')} />
        <TextField label={t('New password')} type="password" autoComplete="new-password" error={formState.errors.password?.message} {...register('password')} />
        <TextField
          label={t('Confirm password')}
          type="password"
          autoComplete="new-password"
          error={formState.errors.password_confirmation?.message}
          {...register('password_confirmation')}
        />
        <button type="submit" disabled={reset.isPending} className={`w-full ${primaryButtonClass}`}>
          {t('Reset password')}
        </button>
      </form>
    </div>
  );
}
