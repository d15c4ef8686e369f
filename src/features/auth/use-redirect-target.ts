import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { Bootstrap } from '../../api/bootstrap-types';
import { getLandingPath, safeRedirectTarget } from '../../app/landing';

/** After signing in: the saved `redirect` target, else the landing path; history replaced (spec §4). */
export function useGoToRedirectTarget(): (data: Pick<Bootstrap, 'user'> | null) => void {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const saved = safeRedirectTarget(params.get('redirect'));
  return useCallback(
    (data) => {
      void navigate(saved ?? getLandingPath(data?.user ?? null), { replace: true });
    },
    [navigate, saved],
  );
}
