import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { toast } from '../../ui/toast/toast-store';
import { useBootstrap } from '../bootstrap/store';
import { useStopImpersonating } from './api';

/** On every screen while an admin is signed in as someone: who, and one click back. */
export function ImpersonationBanner() {
  const { t } = useTrans();
  const { impersonator, user } = useBootstrap();
  const stop = useStopImpersonating();
  const navigate = useNavigate();
  if (!impersonator || !user) return null;
  return (
    <div role="status" className="flex flex-wrap items-center justify-center gap-3 bg-danger px-4 py-2 text-sm text-white">
      <span>{t('You are signed in as :user (by :admin).', { user: user.email, admin: impersonator.email })}</span>
      <button
        type="button"
        className="rounded border border-white px-2 py-0.5 font-semibold hover:bg-white/20"
        disabled={stop.isPending}
        onClick={() => stop.mutate(undefined, { onSuccess: () => void navigate('/admin/users'), onError: (e) => toast.danger(getErrorMessage(e)) })}
      >
        {t('Back to my account')}
      </button>
    </div>
  );
}
