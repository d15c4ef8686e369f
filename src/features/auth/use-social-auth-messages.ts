import { useEffect, useRef } from 'react';
import { readSocialAuthMessage } from './social-auth';
import type { SocialAuthOutcome } from './social-auth';

/** Calls `onOutcome` for each `social-auth` message a popup of ours posts to this window. */
export function useSocialAuthMessages(onOutcome: (outcome: SocialAuthOutcome) => void): void {
  const handler = useRef(onOutcome);
  useEffect(() => {
    handler.current = onOutcome;
  });
  useEffect(() => {
    const listener = (event: MessageEvent) => {
      const outcome = readSocialAuthMessage(event, window.location.origin);
      if (outcome) handler.current(outcome);
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);
}
