import { lazy, Suspense, useState, type ReactElement } from 'react';
import type { Bootstrap } from '../../api/bootstrap-types';
import { useBootstrap } from '../bootstrap/store';
import { useLogoutMutation } from './api';

// On demand: only an account whose role requires two-factor sign-in sees it, and it brings the
// authenticator and passkey panels (~15 KB gzip) that the sign-in page's first load need not carry.
const TwoFactorSetupStep = lazy(() => import('./TwoFactorSetupStep').then((m) => ({ default: m.TwoFactorSetupStep })));

interface SocialSignIn {
  setupStep: boolean;
  closeSetupStep: () => void;
  goToTarget: (data: Bootstrap | null) => void;
}

/**
 * The set-up a role requires before anything else (issue 36), as the sign-in
 * and registration pages show it: after their own answer said so (`show`),
 * after a provider's sign-in, or on a page opened again during it (the
 * bootstrap data says so). Cancelling signs the held-back session out.
 */
export function useSetupStep(social: SocialSignIn): { show: () => void; element: ReactElement | null } {
  const data = useBootstrap();
  const [shown, setShown] = useState(data.two_factor_setup);
  const logout = useLogoutMutation();
  const close = () => {
    setShown(false);
    social.closeSetupStep();
  };
  const element =
    shown || social.setupStep ? (
      <Suspense fallback={null}>
        <TwoFactorSetupStep onSignedIn={(bootstrapData) => social.goToTarget(bootstrapData)} onCancel={() => logout.mutate(undefined, { onSettled: close })} />
      </Suspense>
    ) : null;
  return { show: () => setShown(true), element };
}
