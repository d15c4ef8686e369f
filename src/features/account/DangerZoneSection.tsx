import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import type { AccountUser } from '../../api/api-types';
import { getErrorMessage } from '../../api/errors';
import { queryKeys } from '../../api/query-keys';
import { useTrans } from '../../i18n/use-trans';
import { ModalDialog } from '../../ui/Dialog';
import { dangerButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { TextField } from '../../ui/form/TextField';
import { toast } from '../../ui/toast/toast-store';
import { useLogoutMutation } from '../auth/api';
import { useDeleteAccount } from './api';
import { SettingsSection } from './SettingsSection';

/** Spec §2 'Danger Zone': delete your own account, toast 'Account deleted', then log out. */
export function DangerZoneSection({ user }: { user: AccountUser }) {
  const { t } = useTrans();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();
  const logout = useLogoutMutation();

  const handleDelete = () =>
    remove.mutate(
      { userId: user.id, currentPassword: password },
      {
        onSuccess: ({ message }) => {
          setConfirming(false);
          toast.positive(message || 'Account deleted');
          const toLogin = () => void navigate('/login', { replace: true });
          logout.mutate(undefined, {
            onSuccess: toLogin,
            // The session is already gone with the account: start over as a guest regardless.
            onError: () => {
              client.clear();
              void client.fetchQuery({ queryKey: queryKeys.bootstrap }).finally(toLogin);
            },
          });
        },
        onError: (error) => toast.danger(getErrorMessage(error)),
      },
    );

  return (
    <SettingsSection id="danger" title={t('Danger Zone')}>
      <p className="mb-4 text-sm text-fg-muted">{t('Deleting your account removes your files and memberships. This cannot be undone.')}</p>
      <Button onPress={() => setConfirming(true)} className={dangerButtonClass}>
        {t('Delete account')}
      </Button>
      {confirming && (
        <ModalDialog title={t('Delete account')} isOpen onOpenChange={setConfirming}>
          <p className="mb-4 text-sm">{t('Are you sure you want to delete your account?')}</p>
          <TextField
            className="mb-4"
            label={t('Current password')}
            type="password"
            autoComplete="current-password"
            description={t('Confirm with your password. Without one (social sign-in), sign in again first.')}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <div className="flex justify-end gap-2">
            <Button onPress={() => setConfirming(false)} className={secondaryButtonClass}>
              {t('Cancel')}
            </Button>
            <Button isDisabled={remove.isPending || logout.isPending} onPress={handleDelete} className={dangerButtonClass}>
              {t('Delete')}
            </Button>
          </div>
        </ModalDialog>
      )}
    </SettingsSection>
  );
}
