import { PasswordRequiredDialog } from './PasswordRequiredDialog';
import type { useSocialLogin } from './use-social-login';

/** After REQUEST_PASSWORD: the 'Password required' dialog, then on to the target like any sign-in. */
export function SocialPasswordPrompt({ social }: { social: ReturnType<typeof useSocialLogin> }) {
  if (!social.passwordRequest) return null;
  return (
    <PasswordRequiredDialog
      email={social.passwordRequest.email}
      onClose={social.closePasswordRequest}
      onConnected={(bootstrapData) => {
        social.closePasswordRequest();
        social.goToTarget(bootstrapData);
      }}
    />
  );
}
