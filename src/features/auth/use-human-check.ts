import { useCallback } from 'react';
import { useBootstrap } from '../bootstrap/store';
import { isHumanCheckRequired, runHumanCheck } from './human-check';
import type { HumanCheckResult } from './human-check';

/** Runs the human check for `action` when the site requires it; passes at once otherwise. */
export function useHumanCheck(action: string): () => Promise<HumanCheckResult> {
  const { recaptcha } = useBootstrap();
  return useCallback(
    () => (isHumanCheckRequired(recaptcha, action) ? runHumanCheck(recaptcha.site_key, action) : Promise.resolve({ ok: true as const })),
    [recaptcha, action],
  );
}
