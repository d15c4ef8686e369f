import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { z } from '../../ui/zod';
import { requiredEmail } from './email-field';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { HydratedForm } from '../../ui/form/HydratedForm';
import type { TranslateFn } from '../../i18n/use-trans';
import { linkClass, primaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useBootstrap } from '../bootstrap/store';
import { useForgotPassword } from './api';

const forgotSchema = (t: TranslateFn) =>
  z.object({
    email: requiredEmail(t),
  });
type ForgotForm = z.infer<ReturnType<typeof forgotSchema>>;

/** Spec §2 "Forgot password"; §4: show the server's message and go to /login. */
export function ForgotPasswordPage() {
  const { t } = useTrans();
  const data = useBootstrap();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const presetEmail = params.get('email');
  const forgot = useForgotPassword();
  const resolver = useMemo(() => zodResolver(forgotSchema(t)), [t]);
  const { register, handleSubmit, setError, formState } = useForm<ForgotForm>({ resolver, defaultValues: { email: presetEmail ?? '' } });

  const handleForgot = handleSubmit((values) =>
    forgot.mutate(values, {
      onSuccess: ({ message }) => {
        toast.positive(message);
        void navigate('/login', { replace: true });
      },
      onError: (error) => {
        if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
      },
    }),
  );

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t('Forgot password')}</h1>
      <p className="text-sm text-fg-muted">{t('Enter your email and we will send you a link to reset your password.')}</p>
      <HydratedForm onSubmit={handleForgot} noValidate className="space-y-4">
        <TextField
          label={t('Email')}
          type="email"
          autoComplete="email"
          placeholder={t('Email')}
          readOnly={!!presetEmail}
          error={formState.errors.email?.message}
          {...register('email')}
        />
        <button type="submit" disabled={forgot.isPending} className={`w-full ${primaryButtonClass}`}>
          {t('Continue')}
        </button>
      </HydratedForm>
      <p className="text-sm">
        <Link to="/login" className={linkClass}>
          {t('Already have an account? Sign in')}
        </Link>
      </p>
      {!data.registration.disable && (
        <p className="text-sm">
          <Link to="/register" className={linkClass}>
            {t("Don't have an account? Sign up")}
          </Link>
        </p>
      )}
    </div>
  );
}
