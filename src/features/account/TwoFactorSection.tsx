import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { getErrorMessage, getFieldError } from '../../api/errors';
import type { TotpSetupResponse } from '../../api/api-types';
import { useTrans } from '../../i18n/use-trans';
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast/toast-store';
import { PasskeysPanel } from './PasskeysPanel';
import { SettingsSection } from './SettingsSection';
import { useConfirmTotp, useDisableTwoFactor, useRegenerateRecoveryCodes, useStartTotpSetup, useTwoFactorStatus } from './two-factor-api';

/** The otpauth URL as an SVG QR code, drawn here so the secret never leaves the browser for an image service. */
function QrCode({ value, label }: { value: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((text) => live && setSvg(text));
    return () => {
      live = false;
    };
  }, [value]);
  if (!svg) return <div className="size-44" />;
  return <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={label} className="size-44 rounded bg-white p-1" />;
}

/** Ten codes, shown once: the user copies or writes them down now. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTrans();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.positive('Copied to clipboard');
    } catch {
      toast.danger('Could not copy');
    }
  };
  return (
    <div role="status" className="rounded border border-primary/40 bg-primary/5 p-3 text-sm">
      <p className="mb-2 font-medium">{t('Save these recovery codes now. They will not be shown again.')}</p>
      <p className="mb-2 text-fg-muted">{t('Each code signs you in once if you lose your authenticator app.')}</p>
      <ul aria-label={t('Recovery codes')} className="mb-3 grid grid-cols-2 gap-1 font-mono">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <button type="button" className={secondaryButtonClass} onClick={() => void copy()}>
          {t('Copy')}
        </button>
        <button type="button" className={primaryButtonClass} onClick={onDone}>
          {t('Done')}
        </button>
      </div>
    </div>
  );
}

/** Set up: scan (or type the secret), then confirm with the first code. */
function TotpSetup({ setup, onConfirmed, onCancel }: { setup: TotpSetupResponse; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const { t } = useTrans();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t('This field is required'));
    confirm.mutate(code.trim(), {
      onSuccess: ({ recovery_codes }) => onConfirmed(recovery_codes),
      onError: (failure) => {
        const message = getFieldError(failure, 'code');
        if (message) setError(message);
        else toast.danger(getErrorMessage(failure));
      },
    });
  };
  return (
    <div className="grid gap-4">
      <p className="text-sm">{t('Scan this QR code with your authenticator app, or type the key below into it.')}</p>
      <div className="flex flex-wrap items-center gap-4">
        <QrCode value={setup.otpauth_url} label={t('QR code for your authenticator app')} />
        <div className="text-sm">
          <p className="text-fg-muted">{t('Setup key')}</p>
          <code data-testid="totp-secret" className="break-all rounded bg-fg/5 px-2 py-1 font-mono">
            {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
          </code>
        </div>
      </div>
      <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <TextField
          label={t('Code from the app')}
          autoComplete="one-time-code"
          inputMode="numeric"
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            setError(undefined);
          }}
          error={error}
        />
        <button type="submit" disabled={confirm.isPending} className={primaryButtonClass}>
          {t('Confirm')}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          {t('Cancel')}
        </button>
      </form>
    </div>
  );
}

/** Regenerate recovery codes or turn two-factor off: both need a current code; turning off needs the password too. */
function ManageTwoFactor({ hasPassword, onNewCodes }: { hasPassword: boolean; onNewCodes: (codes: string[]) => void }) {
  const { t } = useTrans();
  const regenerate = useRegenerateRecoveryCodes();
  const disable = useDisableTwoFactor();
  const [action, setAction] = useState<'regenerate' | 'disable' | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string; current_password?: string }>({});

  const close = () => {
    setAction(null);
    setCode('');
    setPassword('');
    setErrors({});
  };
  const onError = (failure: unknown) => {
    const next = { code: getFieldError(failure, 'code'), current_password: getFieldError(failure, 'current_password') };
    if (next.code || next.current_password) setErrors(next);
    else toast.danger(getErrorMessage(failure));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const required = t('This field is required');
    const missing = { code: code.trim() ? undefined : required, current_password: action === 'disable' && hasPassword && !password ? required : undefined };
    if (missing.code || missing.current_password) return setErrors(missing);
    const answer = { method: 'totp' as const, code: code.trim() };
    if (action === 'regenerate') {
      regenerate.mutate(answer, {
        onSuccess: ({ recovery_codes }) => {
          close();
          onNewCodes(recovery_codes);
        },
        onError,
      });
    } else {
      disable.mutate(
        { ...answer, ...(hasPassword ? { current_password: password } : {}) },
        {
          onSuccess: () => {
            close();
            toast.positive(t('Two-factor sign-in is off.'));
          },
          onError,
        },
      );
    }
  };

  if (!action) {
    return (
      <div className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} onClick={() => setAction('regenerate')}>
          {t('New recovery codes')}
        </button>
        <button type="button" className={dangerButtonClass} onClick={() => setAction('disable')}>
          {t('Turn off')}
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <p className="text-sm">
        {action === 'regenerate'
          ? t('Enter a code from your authenticator app. Your old recovery codes stop working.')
          : t('Enter a code from your authenticator app to turn two-factor sign-in off.')}
      </p>
      {action === 'disable' && hasPassword && (
        <TextField
          label={t('Current password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.current_password}
        />
      )}
      <TextField
        label={t('Code from the app')}
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={errors.code}
      />
      <div className="flex gap-2">
        <button type="submit" disabled={regenerate.isPending || disable.isPending} className={action === 'disable' ? dangerButtonClass : primaryButtonClass}>
          {action === 'disable' ? t('Turn off') : t('New recovery codes')}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={close}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

/** Account settings → Security (issue 36): two-factor sign-in with an authenticator app. */
export function TwoFactorSection() {
  const { t } = useTrans();
  const status = useTwoFactorStatus();
  const start = useStartTotpSetup();
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: setSetup,
      onError: (failure) => toast.danger(getErrorMessage(failure)),
    });

  let body;
  if (codes) body = <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  else if (!status.data) body = status.isError ? <p role="alert">{t('There was an issue. Please try again.')}</p> : <Spinner />;
  else if (setup)
    body = (
      <TotpSetup
        setup={setup}
        onConfirmed={(recovery) => {
          setSetup(null);
          setCodes(recovery);
        }}
        onCancel={() => setSetup(null)}
      />
    );
  else if (status.data.totp)
    body = (
      <div className="grid gap-3">
        <p className="text-sm font-medium text-positive">{t('Two-factor sign-in is on.')}</p>
        <p className="text-sm text-fg-muted">{t('Recovery codes left: :count', { count: status.data.recovery_codes_left })}</p>
        <ManageTwoFactor hasPassword={status.data.has_password} onNewCodes={setCodes} />
      </div>
    );
  else
    body = (
      <div className="grid gap-3">
        <p className="text-sm text-fg-muted">{t('Two-factor sign-in is off.')}</p>
        <div>
          <button type="button" className={primaryButtonClass} disabled={start.isPending} onClick={begin}>
            {t('Set up an authenticator app')}
          </button>
        </div>
      </div>
    );

  return (
    <SettingsSection
      id="security"
      title={t('Security')}
      description={t(
        'Two-factor sign-in asks for a code from an authenticator app after your password, so a stolen password alone does not open your account.',
      )}
    >
      {body}
      <PasskeysPanel />
    </SettingsSection>
  );
}
