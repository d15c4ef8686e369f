import { lazy, Suspense } from 'react';
import type { useSocialLogin } from './use-social-login';

// Rarely shown, and its modal code (react-aria's dialog, ~30 KB gzip) would otherwise sit on the
// sign-in page's critical path: it loads when a social sign-in first asks for the password.
const PasswordRequiredDialog = lazy(() => import('./PasswordRequiredDialog').then((m) => ({ default: m.PasswordRequiredDialog })));

/** After REQUEST_PASSWORD: the 'Password required' dialog, then on to the target like any sign-in. */
export function SocialPasswordPrompt({ social }: { social: ReturnType<typeof useSocialLogin> }) {
  if (!social.passwordRequest) return null;
  return (
    <Suspense fallback={null}>
      <PasswordRequiredDialog
        email={social.passwordRequest.email}
        onClose={social.closePasswordRequest}
        onConnected={(bootstrapData) => {
          social.closePasswordRequest();
          social.goToTarget(bootstrapData);
        }}
        onSecondStep={() => {
          social.closePasswordRequest();
          social.requestSecondStep();
        }}
      />
    </Suspense>
  );
}
