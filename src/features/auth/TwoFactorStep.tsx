import { useState, type FormEvent } from 'react';
import type { Bootstrap } from '../../api/bootstrap-types';
import { isApiError } from '../../api/api-error';
import { getErrorMessage, getFieldError } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { linkClass, primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { usePasskeySignIn, useSecondStep } from './api';

/**
 * A sign-in's second step (issue 36): the authenticator app's code, or one of
 * the recovery codes; the account is reached only after it.
 */
export function TwoFactorStep({
  methods,
  onSignedIn,
  onCancel,
}: {
  /** What the account can answer with (the login's `two_factor.methods`). */
  methods: string[];
  onSignedIn: (data: Bootstrap) => void;
  onCancel: () => void;
}) {
  const { t } = useTrans();
  const step = useSecondStep();
  const passkey = usePasskeySignIn();
  const hasCodes = methods.includes('totp');
  const [method, setMethod] = useState<'totp' | 'recovery_code'>('totp');
  const [code, setCode] = useState('');
  const [rememberDevice, setRememberDevice] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('This field is required'));
      return;
    }
    step.mutate(
      { method, code: code.trim(), remember_device: rememberDevice },
      {
        onSuccess: ({ bootstrapData }) => onSignedIn(bootstrapData),
        onError: (failure) => {
          const message = getFieldError(failure, method === 'totp' ? 'code' : 'recovery_code');
          if (message) setError(message);
          else toast.danger(getErrorMessage(failure));
          // An expired sign-in cannot be finished here: back to the password.
          if (isApiError(failure) && failure.status === 401) onCancel();
        },
      },
    );
  };

  const switchMethod = () => {
    setMethod(method === 'totp' ? 'recovery_code' : 'totp');
    setCode('');
    setError(undefined);
  };

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t('Two-factor sign-in')}</h1>
      <p className="text-sm text-fg-muted">
        {method === 'totp'
          ? t('Enter the six-digit code from your authenticator app.')
          : t('Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once.')}
      </p>
      {methods.includes('passkey') && (
        <button
          type="button"
          disabled={passkey.isPending}
          className={`w-full ${secondaryButtonClass}`}
          onClick={() =>
            passkey.mutate(
              { rememberDevice },
              {
                onSuccess: ({ bootstrapData }) => onSignedIn(bootstrapData),
                onError: (failure) => toast.danger(getErrorMessage(failure, t('The passkey was not accepted.'))),
              },
            )
          }
        >
          {t('Use a passkey')}
        </button>
      )}
      {hasCodes && (
        <form onSubmit={submit} noValidate className="space-y-4">
          <TextField
            id="two-factor-code"
            label={method === 'totp' ? t('Authentication code') : t('Recovery code')}
            autoComplete="one-time-code"
            inputMode={method === 'totp' ? 'numeric' : 'text'}
            autoFocus
            value={code}
            onChange={(event) => {
              setCode(event.target.value);
              setError(undefined);
            }}
            error={error}
          />
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-[rgb(var(--be-primary))]"
              checked={rememberDevice}
              onChange={(event) => setRememberDevice(event.target.checked)}
            />
            {t('Remember this device for 30 days')}
          </label>
          <button type="submit" disabled={step.isPending} className={`w-full ${primaryButtonClass}`}>
            {t('Verify')}
          </button>
        </form>
      )}
      <p className="flex flex-wrap justify-between gap-2 text-sm">
        {hasCodes && (
          <button type="button" className={linkClass} onClick={switchMethod}>
            {method === 'totp' ? t('Use a recovery code') : t('Use the authenticator app')}
          </button>
        )}
        <button type="button" className={linkClass} onClick={onCancel}>
          {t('Cancel')}
        </button>
      </p>
    </div>
  );
}
