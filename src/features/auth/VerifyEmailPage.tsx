import { Button } from 'react-aria-components';
import { getErrorMessage } from '../../api/errors';
import type { User } from '../../api/bootstrap-types';
import { useTrans } from '../../i18n/use-trans';
import { toast } from '../../ui/toast/toast-store';
import { useResendVerification } from './api';
import { useLogout } from './use-logout';

/** Spec §2 "Email verification gate": the only screen until `email_verified_at` is set. */
export function VerifyEmailPage({ user }: { user: User }) {
  const { t } = useTrans();
  const { logout } = useLogout();
  const resend = useResendVerification();
  const handleResend = () =>
    resend.mutate(user.email, {
      onSuccess: ({ message }) => toast.positive(message || 'Email sent'),
      onError: (error) => toast.danger(getErrorMessage(error)),
    });
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-semibold">{t('Verify your email')}</h1>
      <p className="text-sm text-fg-muted">{t('Before getting started, please verify your email address by clicking the link we just emailed to you.')}</p>
      <p className="text-sm text-fg-muted">{t('The verification link is valid for 24 hours.')}</p>
      <p className="text-sm">
        {t("Didn't receive the email?")}{' '}
        <Button
          onPress={handleResend}
          isDisabled={resend.isPending}
          className="font-semibold text-primary hover:underline focus-visible:outline-2 focus-visible:outline-primary disabled:opacity-60"
        >
          {t('request a new verification email')}
        </Button>
      </p>
      <Button onPress={logout} className="w-full rounded py-2 text-sm text-fg-muted hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary">
        {t('Logout')}
      </Button>
    </section>
  );
}
