import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from 'react-aria-components';
import { applyFieldErrors, getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { formatRelativeTime } from '../../i18n/relative-time';
import { primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { toast } from '../../ui/toast/toast-store';
import { useAccessTokens, useCreateAccessToken, useDeleteAccessToken } from './api';
import { SettingsSection } from './SettingsSection';

interface TokenForm {
  name: string;
  expires_on: string;
}

/** Personal access tokens (permission api.access): create (shown once), list, revoke. */
export function AccessTokensPanel() {
  const { t } = useTrans();
  const tokens = useAccessTokens();
  const create = useCreateAccessToken();
  const revoke = useDeleteAccessToken();
  const [plainToken, setPlainToken] = useState<string | null>(null);
  const { register, handleSubmit, reset, setError, formState } = useForm<TokenForm>({
    mode: 'onChange',
    defaultValues: { name: '', expires_on: '' },
  });

  const handleCreate = handleSubmit(async ({ name, expires_on }) => {
    try {
      // A date picked in the form expires at the end of that day, local time.
      const expires_at = expires_on ? new Date(`${expires_on}T23:59:59`).toISOString() : null;
      const result = await create.mutateAsync({ name: name.trim(), expires_at });
      setPlainToken(result.plainTextToken);
      reset();
    } catch (error) {
      if (!applyFieldErrors(error, setError, (field) => (field === 'expires_at' ? 'expires_on' : field))) {
        toast.danger(getErrorMessage(error));
      }
    }
  });

  const handleCopy = async () => {
    if (!plainToken) return;
    try {
      await navigator.clipboard.writeText(plainToken);
      toast.positive('Copied to clipboard');
    } catch {
      toast.danger('Could not copy');
    }
  };

  return (
    <SettingsSection id="tokens" title={t('API access tokens')} description={t('Tokens let scripts and other apps use the API as you.')}>
      <p className="mb-4 text-sm text-fg-muted">
        {t('A token keeps working when two-factor sign-in is on: it is already a second secret. Keep it as safe as your password.')}
      </p>
      {plainToken && (
        <div role="status" className="mb-4 rounded border border-primary/40 bg-primary/5 p-3 text-sm">
          <p className="mb-2 font-medium">{t('Copy your new token now. It will not be shown again.')}</p>
          <div className="flex items-center gap-2">
            <code data-testid="plain-token" className="flex-1 break-all rounded bg-fg/5 px-2 py-1">
              {plainToken}
            </code>
            <IconButton label={t('Copy')} onPress={() => void handleCopy()}>
              <Icon name="copy" className="size-5" />
            </IconButton>
          </div>
          <Button onPress={() => setPlainToken(null)} className="mt-2 text-xs text-fg-muted hover:underline">
            {t('Done')}
          </Button>
        </div>
      )}
      <form onSubmit={handleCreate} noValidate className="grid gap-4 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <TextField label={t('Token name')} error={formState.errors.name?.message} {...register('name', { required: true, validate: (v) => v.trim() !== '' })} />
        <TextField label={t('Expires on')} type="date" error={formState.errors.expires_on?.message} {...register('expires_on')} />
        <button type="submit" disabled={!formState.isValid || formState.isSubmitting} className={primaryButtonClass}>
          {t('Create token')}
        </button>
      </form>
      <p className="mt-4 text-sm text-fg-muted" data-testid="webdav-address">
        {t('Mount your drive in a file manager or sync it with rclone over WebDAV at :address: any user name, a token as the password.', {
          address: `${window.location.origin}/dav/`,
        })}
      </p>
      <ul className="mt-4 divide-y divide-divider">
        {(tokens.data ?? []).map((token) => (
          <li key={token.id} className="flex items-center gap-3 py-3">
            <div className="flex-1">
              <p className="font-medium">{token.name}</p>
              <p className="text-xs text-fg-muted">
                {token.last_used_at ? t('Last used :time', { time: formatRelativeTime(token.last_used_at) }) : t('Never used')}
                {token.expires_at && ` · ${t('Expires :date', { date: new Date(token.expires_at).toLocaleDateString() })}`}
              </p>
            </div>
            <Button
              isDisabled={revoke.isPending}
              onPress={() => revoke.mutate(token.id, { onError: (error) => toast.danger(getErrorMessage(error)) })}
              aria-label={`${t('Revoke')} ${token.name}`}
              className={secondaryButtonClass}
            >
              {t('Revoke')}
            </Button>
          </li>
        ))}
      </ul>
    </SettingsSection>
  );
}
