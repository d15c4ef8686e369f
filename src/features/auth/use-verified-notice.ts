import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { queryKeys } from '../../api/query-keys';
import { toast } from '../../ui/toast/toast-store';

export const EMAIL_VERIFIED = 'Your email has been verified.';
export const EMAIL_NOT_VERIFIED = 'This verification link is invalid or has expired.';

/**
 * The mailed link ends on `/drive?verified=1` (or `=0`): say so, refresh the
 * bootstrap data (its user now has `email_verified_at`) and drop the parameter.
 */
export function useVerifiedNotice(): void {
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  useEffect(() => {
    const params = new URLSearchParams(search);
    const verified = params.get('verified');
    if (verified !== '1' && verified !== '0') return;
    if (verified === '1') {
      toast.positive(EMAIL_VERIFIED);
      void client.invalidateQueries({ queryKey: queryKeys.bootstrap });
    } else {
      toast.danger(EMAIL_NOT_VERIFIED);
    }
    params.delete('verified');
    const rest = params.toString();
    void navigate(`${pathname}${rest ? `?${rest}` : ''}${hash}`, { replace: true });
  }, [pathname, search, hash, navigate, client]);
}
