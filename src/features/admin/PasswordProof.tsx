import { useState, type ReactNode } from 'react';
import { getErrorMessage, getFieldError } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { ModalDialog } from '../../ui/Dialog';
import { primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';

/** Sends the action again, now with the admin's own password. */
export type RetryWithPassword = (currentPassword: string, handlers: { onSuccess: () => void; onError: (error: unknown) => void }) => void;

/**
 * Signing in as someone, deleting users, setting a password or email and
 * granting admin ask the admin's password again (issue 30 finding 8). The
 * server decides when: an answer with a `current_password` error opens the
 * spec's 'Password required' dialog, which sends the same action again.
 */
export function usePasswordProof(): { ask: (error: unknown, retry: RetryWithPassword) => boolean; dialog: ReactNode } {
  const [pending, setPending] = useState<{ message: string; retry: RetryWithPassword } | null>(null);
  const ask = (error: unknown, retry: RetryWithPassword) => {
    const message = getFieldError(error, 'current_password');
    if (!message) return false;
    setPending({ message, retry });
    return true;
  };
  const dialog = pending ? <PasswordProofDialog message={pending.message} retry={pending.retry} onClose={() => setPending(null)} /> : null;
  return { ask, dialog };
}

function PasswordProofDialog({ message, retry, onClose }: { message: string; retry: RetryWithPassword; onClose: () => void }) {
  const { t } = useTrans();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [isPending, setPending] = useState(false);

  const handleSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    // The dialog is portaled, but React bubbles its submit to the form of the screen that opened it.
    event.stopPropagation();
    if (!password) {
      setError(t('This field is required'));
      return;
    }
    setPending(true);
    retry(password, {
      onSuccess: onClose,
      onError: (e) => {
        setPending(false);
        const wrong = getFieldError(e, 'current_password');
        if (wrong) return setError(wrong);
        toast.danger(getErrorMessage(e));
        onClose();
      },
    });
  };

  return (
    <ModalDialog title={t('Password required')} isOpen onOpenChange={(open) => !open && onClose()}>
      <form onSubmit={handleSubmit} noValidate className="space-y-4">
        <p className="text-sm text-fg-muted">{message}</p>
        <TextField
          label={t('Password')}
          type="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error}
        />
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className={secondaryButtonClass}>
            {t('Cancel')}
          </button>
          <button type="submit" disabled={isPending} className={primaryButtonClass}>
            {t('Confirm')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
