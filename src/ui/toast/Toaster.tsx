import { useSyncExternalStore } from 'react';
import { Button } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import { translate } from '../../i18n/i18n';
import { Icon } from '../icons';
import { toastStore } from './toast-store';
import type { Toast } from './toast-store';

const POSITION_CLASS: Record<Toast['position'], string> = {
  // Above the cookie bar while it shows (--cookie-bar, set by CookieNotice).
  'bottom-center': 'bottom-[calc(1rem+var(--cookie-bar,0px))] left-1/2 -translate-x-1/2',
  'bottom-right': 'bottom-[calc(1rem+var(--cookie-bar,0px))] right-4',
  'top-center': 'top-4 left-1/2 -translate-x-1/2',
};

// The server's render (and the hydration that follows it) shows none: toasts come from what the page does.
const NO_TOASTS: Toast[] = [];
const noToasts = () => NO_TOASTS;

export function Toaster() {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.getToasts, noToasts);
  return (
    <>
      {toasts.map((t) => (
        <ToastView key={t.id} toast={t} />
      ))}
    </>
  );
}

function ToastView({ toast }: { toast: Toast }) {
  const navigate = useNavigate();
  const { action } = toast;
  const handleAction = () => {
    if (!action) return;
    if (typeof action.action === 'function') action.action();
    else if (/^[a-z][a-z\d+\-.]*:/i.test(action.action)) window.open(action.action, '_blank', 'noopener');
    else void navigate(action.action);
    toastStore.remove(toast.id);
  };
  return (
    <div
      role={toast.type === 'danger' ? 'alert' : 'status'}
      data-toast-id={toast.id}
      className={`fixed z-[60] flex min-w-[288px] max-w-[500px] items-center gap-3 rounded-lg px-4 py-3 text-sm shadow-lg ${POSITION_CLASS[toast.position]} ${
        toast.type === 'danger' ? 'bg-danger text-white' : 'bg-fg text-bg'
      } ${toast.disableEnterAnimation ? '' : 'animate-[toast-in_150ms_ease-out]'}`}
    >
      {toast.type === 'loading' && (
        <span aria-hidden="true" className="size-4 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent" />
      )}
      <span className="flex-1">{translate(toast.message)}</span>
      {action && (
        <Button onPress={handleAction} className="rounded px-2 py-1 font-semibold uppercase hover:bg-white/10 focus-visible:outline-2">
          {translate(action.label)}
        </Button>
      )}
      <Button
        aria-label={translate('Close')}
        onPress={() => toastStore.remove(toast.id)}
        className="rounded-full p-1 hover:bg-white/10 focus-visible:outline-2"
      >
        <Icon name="close" className="size-4" />
      </Button>
    </div>
  );
}
