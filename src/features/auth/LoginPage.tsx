import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { HydratedForm } from '../../ui/form/HydratedForm';
import { lazyResolver } from '../../ui/form/lazy-resolver';
import type { LoginForm } from './login-schema';
import { linkClass, primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useBootstrap } from '../bootstrap/store';
import { useLogin, usePasskeySignIn } from './api';
import { demoCredentials } from './demo';
import { InviteSummary, inviteIdFrom } from '../workspaces/components/InviteSummary';
import { isWorkspacePath, loginHeading } from './headings';
import { SocialPasswordPrompt } from './SocialPasswordPrompt';
import { enabledSocialServices, showSocialButtons, SocialButtons } from './SocialButtons';
import { useSocialLogin } from './use-social-login';
import { sharedCountOf } from '../pwa/shared-count';
import { TwoFactorStep } from './TwoFactorStep';
import { useSetupStep } from './use-setup-step';

/** Spec §2 "Sign-in" (/login and /workspace/join/login). */
export function LoginPage() {
  const { t } = useTrans();
  const data = useBootstrap();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const presetEmail = params.get('email');
  const demo = demoCredentials(data);
  const shared = sharedCountOf(params.get('redirect'));
  const login = useLogin();
  const social = useSocialLogin();
  // The schema and zod (~35 KB gzip) load on the first check, not before the page can be hydrated.
  const resolver = useMemo(() => lazyResolver(() => import('./login-schema').then((m) => m.loginResolver(t))), [t]);
  useEffect(() => void resolver.preload(), [resolver]);
  const { register, handleSubmit, setError, formState } = useForm<LoginForm>({
    resolver,
    defaultValues: { email: presetEmail ?? demo?.email ?? '', password: demo?.password ?? '', remember: true },
  });

  // The password (or a provider) was right and the account has a second factor: its step replaces the form.
  const [secondStep, setSecondStep] = useState<string[] | null>(null);
  // A role requires two-factor sign-in and the account has none: only its set-up is reachable (issue 36).
  const setup = useSetupStep(social);
  const passkey = usePasskeySignIn();
  const signInWithPasskey = () =>
    passkey.mutate(
      { rememberDevice: false },
      {
        onSuccess: ({ bootstrapData }) => social.goToTarget(bootstrapData),
        onError: (error) => toast.danger(getErrorMessage(error, t('The passkey was not accepted.'))),
      },
    );

  const handleLogin = (values: LoginForm) => {
    login.mutate(values, {
      onSuccess: ({ bootstrapData, two_factor, two_factor_setup }) => {
        if (two_factor) setSecondStep(two_factor.methods);
        else if (two_factor_setup) setup.show();
        else social.goToTarget(bootstrapData);
      },
      onError: (error) => {
        if (!applyFieldErrors(error, setError)) toast.danger(getErrorMessage(error));
      },
    });
  };

  // Keep the invite context (email, redirect) when switching to sign-up.
  const registerPath = isWorkspacePath(pathname) ? '/workspace/join/register' : '/register';
  const query = params.toString();

  if (setup.element) return setup.element;

  if (secondStep || social.secondStep) {
    return (
      <TwoFactorStep
        methods={secondStep ?? ['totp', 'recovery_code', 'passkey']}
        onSignedIn={(bootstrapData) => social.goToTarget(bootstrapData)}
        onCancel={() => {
          setSecondStep(null);
          social.closeSecondStep();
        }}
      />
    );
  }

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t(loginHeading(pathname), { siteName: data.branding.site_name })}</h1>
      {isWorkspacePath(pathname) && <InviteSummary inviteId={inviteIdFrom(params)} className="text-sm text-fg-muted" />}
      {shared > 0 && (
        // Files shared into the app while signed out are kept on the device; signing in sends them.
        <p role="status" className="rounded bg-primary/10 p-3 text-sm">
          {t('Sign in to upload the files you shared (:count). They are kept on this device until then.', { count: shared })}
        </p>
      )}
      {showSocialButtons(data) && <SocialButtons services={enabledSocialServices(data)} onSelect={social.start} />}
      <HydratedForm onSubmit={handleSubmit(handleLogin)} noValidate className="space-y-4">
        <TextField
          id="login-email"
          label={t('Email')}
          type="email"
          autoComplete="email"
          placeholder={t('Email')}
          readOnly={!!presetEmail}
          error={formState.errors.email?.message}
          {...register('email')}
        />
        <TextField
          id="login-password"
          label={t('Password')}
          type="password"
          autoComplete="current-password"
          placeholder={t('Password')}
          error={formState.errors.password?.message}
          {...register('password')}
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-[rgb(var(--be-primary))]" {...register('remember')} />
          {t('Remember me')}
        </label>
        <button type="submit" disabled={login.isPending} className={`w-full ${primaryButtonClass}`}>
          {t('Continue')}
        </button>
      </HydratedForm>
      <button type="button" disabled={passkey.isPending} onClick={signInWithPasskey} className={`w-full ${secondaryButtonClass}`}>
        {t('Sign in with a passkey')}
      </button>
      <p className="text-sm">
        <Link to={presetEmail ? `/forgot-password?email=${encodeURIComponent(presetEmail)}` : '/forgot-password'} className={linkClass}>
          {t('Forgot Password? Recover')}
        </Link>
      </p>
      {!data.registration.disable && (
        <p className="text-sm">
          <Link to={query ? `${registerPath}?${query}` : registerPath} className={linkClass}>
            {t("Don't have an account? Sign up")}
          </Link>
        </p>
      )}
      <SocialPasswordPrompt social={social} />
    </div>
  );
}
