import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import type { AccountUser, SocialService } from '../../api/api-types';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { secondaryButtonClass } from '../../ui/form/field-classes';
import { Icon } from '../../ui/icons';
import { toast } from '../../ui/toast/toast-store';
import { useSocialDisconnect } from '../auth/api';
import { openSocialPopup, SOCIAL_SERVICES } from '../auth/social-auth';
import { useSocialAuthMessages } from '../auth/use-social-auth-messages';
import { setBootstrap, useBootstrap } from '../bootstrap/store';
import { useRefreshAccount } from './api';
import { SettingsSection } from './SettingsSection';

const NAMES: Record<SocialService, string> = { google: 'Google', facebook: 'Facebook' };

/** Spec §2: social accounts can be connected (popup at …/connect) and disconnected. */
export function SocialAccountsPanel({ user }: { user: AccountUser }) {
  const { t } = useTrans();
  const data = useBootstrap();
  const client = useQueryClient();
  const refresh = useRefreshAccount();
  const disconnect = useSocialDisconnect();
  const profiles = user.social_profiles ?? [];
  const services = SOCIAL_SERVICES.filter((s) => data.social[s].enable || profiles.some((p) => p.service_name === s));

  useSocialAuthMessages((outcome) => {
    if (outcome.kind === 'signed-in') {
      setBootstrap(client, outcome.bootstrapData);
      void refresh();
    } else if (outcome.kind === 'error') {
      toast.danger(outcome.message);
    }
  });

  if (services.length === 0) return null;

  const handleDisconnect = (service: SocialService) =>
    disconnect.mutate(service, {
      onSuccess: ({ message }) => {
        toast.positive(message);
        void refresh();
      },
      onError: (error) => toast.danger(getErrorMessage(error)),
    });

  return (
    <SettingsSection id="social" title={t('Connected accounts')}>
      <ul className="divide-y divide-divider">
        {services.map((service) => {
          const profile = profiles.find((p) => p.service_name === service);
          return (
            <li key={service} className="flex items-center gap-3 py-3">
              <Icon name={service} className="size-6 text-fg-muted" />
              <div className="flex-1">
                <p className="font-medium">{NAMES[service]}</p>
                <p className="text-sm text-fg-muted">{profile ? (profile.username ?? t('Connected')) : t('Not connected')}</p>
              </div>
              {profile ? (
                <Button
                  isDisabled={disconnect.isPending}
                  onPress={() => handleDisconnect(service)}
                  aria-label={`${t('Disconnect')} ${NAMES[service]}`}
                  className={secondaryButtonClass}
                >
                  {t('Disconnect')}
                </Button>
              ) : (
                <Button
                  isDisabled={!data.social[service].enable}
                  onPress={() => openSocialPopup(service, 'connect')}
                  aria-label={`${t('Connect')} ${NAMES[service]}`}
                  className={secondaryButtonClass}
                >
                  {t('Connect')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </SettingsSection>
  );
}
