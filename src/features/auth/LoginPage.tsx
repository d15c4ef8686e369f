import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { getLandingPath, safeRedirectTarget } from '../../app/landing';
import { useTrans } from '../../i18n/use-trans';
import { toast } from '../../ui/toast/toast-store';
import { useBootstrap } from '../bootstrap/store';
import { useLogin } from './use-login';

const schema = z.object({
  email: z.email(),
  password: z.string().min(1),
  remember: z.boolean(),
});
type LoginForm = z.infer<typeof schema>;

/**
 * Minimal sign-in (email, password, remember, Continue) so the guards work
 * end to end; social buttons and demo defaults come with the accounts issue.
 */
export function LoginPage() {
  const { t } = useTrans();
  const data = useBootstrap();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const presetEmail = params.get('email');
  const login = useLogin();
  const { register, handleSubmit, setError, formState } = useForm<LoginForm>({
    resolver: zodResolver(schema),
    defaultValues: { email: presetEmail ?? '', password: '', remember: true },
  });

  const handleLogin = (values: LoginForm) => {
    login.mutate(values, {
      onSuccess: ({ bootstrapData }) => {
        const target = safeRedirectTarget(params.get('redirect')) ?? getLandingPath(bootstrapData.user);
        void navigate(target, { replace: true });
      },
      onError: (error) => {
        if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
      },
    });
  };

  const heading = pathname.includes('workspace')
    ? t('To join your team on :siteName, login to your account', { siteName: data.branding.site_name })
    : t('Sign in to your account');
  const fieldClass =
    'block w-full rounded border border-divider bg-paper px-3 py-2 text-fg outline-none focus:border-primary focus-visible:ring-2 focus-visible:ring-primary/40 aria-[invalid=true]:border-danger disabled:opacity-70';

  return (
    <form onSubmit={handleSubmit(handleLogin)} noValidate className="space-y-4">
      <h1 className="text-xl font-semibold">{heading}</h1>
      <div>
        <label htmlFor="login-email" className="mb-1 block text-sm font-medium">
          {t('Email')}
        </label>
        <input
          id="login-email"
          type="email"
          autoComplete="email"
          placeholder={t('Email')}
          readOnly={!!presetEmail}
          aria-invalid={!!formState.errors.email}
          aria-describedby={formState.errors.email ? 'login-email-error' : undefined}
          className={fieldClass}
          {...register('email')}
        />
        {formState.errors.email && (
          <p id="login-email-error" className="mt-1 text-sm text-danger">
            {formState.errors.email.type === 'server' ? formState.errors.email.message : t('Not a valid email')}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="login-password" className="mb-1 block text-sm font-medium">
          {t('Password')}
        </label>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          placeholder={t('Password')}
          aria-invalid={!!formState.errors.password}
          aria-describedby={formState.errors.password ? 'login-password-error' : undefined}
          className={fieldClass}
          {...register('password')}
        />
        {formState.errors.password && (
          <p id="login-password-error" className="mt-1 text-sm text-danger">
            {formState.errors.password.type === 'server' ? formState.errors.password.message : t('This field is required')}
          </p>
        )}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-[rgb(var(--be-primary))]" {...register('remember')} />
        {t('Remember me')}
      </label>
      <button
        type="submit"
        disabled={login.isPending}
        className="w-full rounded bg-primary py-2 font-semibold text-on-primary hover:bg-primary-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-60"
      >
        {t('Continue')}
      </button>
      <p className="text-sm">
        <Link to="/forgot-password" className="text-primary hover:underline">
          {t('Forgot Password? Recover')}
        </Link>
      </p>
      {!data.settings.registration.disable && (
        <p className="text-sm">
          <Link to="/register" className="text-primary hover:underline">
            {t("Don't have an account? Sign up")}
          </Link>
        </p>
      )}
    </form>
  );
}
