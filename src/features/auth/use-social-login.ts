import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SocialService } from '../../api/api-types';
import { toast } from '../../ui/toast/toast-store';
import { setBootstrap } from '../bootstrap/store';
import { applySocialAuthOutcome, openSocialPopup } from './social-auth';
import { useGoToRedirectTarget } from './use-redirect-target';
import { useSocialAuthMessages } from './use-social-auth-messages';

/** Sign-in with a provider from the login and registration screens. */
export function useSocialLogin() {
  const client = useQueryClient();
  const goToTarget = useGoToRedirectTarget();
  const [passwordRequest, setPasswordRequest] = useState<{ email: string | null } | null>(null);
  const [secondStep, setSecondStep] = useState(false);
  const [setupStep, setSetupStep] = useState(false);

  useSocialAuthMessages((outcome) =>
    applySocialAuthOutcome(outcome, {
      setBootstrap: (data) => setBootstrap(client, data),
      goToTarget,
      requestPassword: (email) => setPasswordRequest({ email }),
      requestSecondStep: () => setSecondStep(true),
      requestSetupStep: () => setSetupStep(true),
      showError: (message) => toast.danger(message),
    }),
  );

  return {
    start: (service: SocialService) => openSocialPopup(service, 'login'),
    passwordRequest,
    closePasswordRequest: () => setPasswordRequest(null),
    /** The provider vouched, and the account's second factor is asked next (issue 36). */
    secondStep,
    requestSecondStep: () => setSecondStep(true),
    closeSecondStep: () => setSecondStep(false),
    /** The provider vouched, and a role requires setting up a second factor first (issue 36). */
    setupStep,
    requestSetupStep: () => setSetupStep(true),
    closeSetupStep: () => setSetupStep(false),
    goToTarget,
  };
}
