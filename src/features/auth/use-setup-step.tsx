import { useState, type ReactElement } from 'react';
import type { Bootstrap } from '../../api/bootstrap-types';
import { useBootstrap } from '../bootstrap/store';
import { useLogoutMutation } from './api';
import { TwoFactorSetupStep } from './TwoFactorSetupStep';

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
      <TwoFactorSetupStep onSignedIn={(bootstrapData) => social.goToTarget(bootstrapData)} onCancel={() => logout.mutate(undefined, { onSettled: close })} />
    ) : null;
  return { show: () => setShown(true), element };
}
