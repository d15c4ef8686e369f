import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { saveOnboardingSelection, selectionFromQuery } from '../../app/landing';
import { useTrans } from '../../i18n/use-trans';
import { HydratedForm } from '../../ui/form/HydratedForm';
import { linkClass, primaryButtonClass } from '../../ui/form/field-classes';
import { SelectField } from '../../ui/form/SelectField';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useBootstrap } from '../bootstrap/store';
import { useValueLists } from '../value-lists/api';
import { useRegister } from './api';
import { InviteSummary, inviteIdFrom } from '../workspaces/components/InviteSummary';
import { isWorkspacePath, registerHeading } from './headings';
import { SocialPasswordPrompt } from './SocialPasswordPrompt';
import { PolicyCheckbox } from './PolicyCheckbox';
import { buildRegisterPayload, emptyRegisterForm, registerFieldFor, registerSchema } from './registration';
import type { RegisterFormValues } from './registration';
import { enabledSocialServices, showSocialButtons, SocialButtons } from './SocialButtons';
import { useHumanCheck } from './use-human-check';
import { useSocialLogin } from './use-social-login';
import { useSetupStep } from './use-setup-step';
import { TwoFactorStep } from './TwoFactorStep';

/** Spec §2 "Registration" (/register, /workspace/join/register, ?redirectFrom=pricing). */
export function RegisterPage() {
  const data = useBootstrap();
  if (data.registration.disable) return <Navigate to="/login" replace />;
  return <RegisterForm />;
}

function RegisterForm() {
  const { t } = useTrans();
  const data = useBootstrap();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const policies = data.registration.policies;
  const registerAccount = useRegister();
  const social = useSocialLogin();
  const humanCheck = useHumanCheck('register');
  const countries = useValueLists(['countries']).data?.countries ?? [];
  // A role of the new account requires two-factor sign-in: only its set-up is reachable (issue 36).
  const setup = useSetupStep(social);
  // A plan picked on /pricing: the checkout comes after registration, or after signing in instead (spec §2 "Landing after login").
  useEffect(() => {
    const selection = selectionFromQuery(params);
    if (selection) saveOnboardingSelection(selection);
  }, [params]);

  // An invite link carries the email (and maybe the name): those fields arrive filled and locked.
  const presetEmail = params.get('email');
  const preset = presetEmail ? { email: presetEmail, first_name: params.get('first_name') ?? undefined, last_name: params.get('last_name') ?? undefined } : {};
  const resolver = useMemo(() => zodResolver(registerSchema(policies, t)), [policies, t]);
  const { register, handleSubmit, setError, formState } = useForm<RegisterFormValues>({
    resolver,
    defaultValues: emptyRegisterForm(policies, preset),
  });
  const errors = formState.errors;

  const handleRegister = handleSubmit(async (values) => {
    const check = await humanCheck();
    if (!check.ok) {
      toast.danger(check.message);
      return;
    }
    try {
      const { bootstrapData, status, two_factor_setup } = await registerAccount.mutateAsync(buildRegisterPayload(values, policies));
      if (status === 'needs_email_verification') void navigate('/', { replace: true });
      else if (two_factor_setup) setup.show();
      else social.goToTarget(bootstrapData);
    } catch (error) {
      if (!applyFieldErrors(error, setError, registerFieldFor(policies))) toast.danger(getErrorMessage(error));
    }
  });

  const loginPath = isWorkspacePath(pathname) ? '/workspace/join/login' : '/login';
  const query = params.toString();

  // A provider's sign-in from this page meets the same steps as on the sign-in page.
  if (setup.element) return setup.element;
  if (social.secondStep) {
    return (
      <TwoFactorStep
        methods={['totp', 'recovery_code', 'passkey']}
        onSignedIn={(bootstrapData) => social.goToTarget(bootstrapData)}
        onCancel={social.closeSecondStep}
      />
    );
  }

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t(registerHeading(pathname, params), { siteName: data.branding.site_name })}</h1>
      {isWorkspacePath(pathname) && <InviteSummary inviteId={inviteIdFrom(params)} className="text-sm text-fg-muted" />}
      {showSocialButtons(data) && <SocialButtons services={enabledSocialServices(data)} onSelect={social.start} />}
      <HydratedForm onSubmit={handleRegister} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('First name')}
            autoComplete="given-name"
            readOnly={!!preset.first_name}
            error={errors.first_name?.message}
            {...register('first_name')}
          />
          <TextField
            label={t('Last name')}
            autoComplete="family-name"
            readOnly={!!preset.last_name}
            error={errors.last_name?.message}
            {...register('last_name')}
          />
        </div>
        <TextField label={t('Email')} type="email" autoComplete="email" readOnly={!!presetEmail} error={errors.email?.message} {...register('email')} />
        <TextField label={t('Password')} type="password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
        <TextField
          label={t('Confirm password')}
          type="password"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...register('password_confirmation')}
        />
        <details className="rounded border border-divider px-3 py-2 text-sm">
          <summary className="cursor-pointer text-fg-muted">{t('Address (optional)')}</summary>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <TextField label={t('Address')} autoComplete="street-address" className="sm:col-span-2" error={errors.address?.message} {...register('address')} />
            <TextField label={t('City')} autoComplete="address-level2" error={errors.city?.message} {...register('city')} />
            <TextField label={t('Zip code')} autoComplete="postal-code" error={errors.zipcode?.message} {...register('zipcode')} />
            <SelectField label={t('Country')} className="sm:col-span-2" error={errors.country?.message} {...register('country')}>
              <option value="" />
              {countries.map((c) => (
                <option key={c.code} value={c.code.toLowerCase()}>
                  {c.name}
                </option>
              ))}
            </SelectField>
          </div>
        </details>
        {policies.map((policy) => (
          <PolicyCheckbox key={policy.id} policy={policy} error={errors.policies?.[policy.id]?.message} {...register(`policies.${policy.id}`)} />
        ))}
        <button type="submit" disabled={formState.isSubmitting} className={`w-full ${primaryButtonClass}`}>
          {t('Create account')}
        </button>
      </HydratedForm>
      <p className="text-sm">
        <Link to={query ? `${loginPath}?${query}` : loginPath} className={linkClass}>
          {t('Already have an account? Sign in')}
        </Link>
      </p>
      <SocialPasswordPrompt social={social} />
    </div>
  );
}
