import { Button } from 'react-aria-components';
import type { SocialService } from '../../api/api-types';
import type { Bootstrap } from '../../api/bootstrap-types';
import { useTrans } from '../../i18n/use-trans';
import { Icon } from '../../ui/icons';
import { useHydrated } from '../../ui/use-hydrated';
import { SOCIAL_SERVICES } from './social-auth';

const LABELS: Record<SocialService, string> = { google: 'Continue with Google', facebook: 'Continue with Facebook' };

/** Providers with their own enable flag switched on. */
export function enabledSocialServices(data: Pick<Bootstrap, 'social'>): SocialService[] {
  return SOCIAL_SERVICES.filter((service) => data.social[service].enable);
}

/** Spec §2: social buttons only when registration is open and a provider is enabled. */
export function showSocialButtons(data: Pick<Bootstrap, 'social' | 'registration'>): boolean {
  return !data.registration.disable && enabledSocialServices(data).length > 0;
}

export function SocialButtons({ services, onSelect }: { services: SocialService[]; onSelect: (service: SocialService) => void }) {
  const { t } = useTrans();
  // On a page the server wrote, a press before React runs would open no popup and say nothing.
  const hydrated = useHydrated();
  if (services.length === 0) return null;
  return (
    <div className="space-y-2">
      {services.map((service) => (
        <Button
          key={service}
          onPress={() => onSelect(service)}
          isDisabled={!hydrated}
          className="flex w-full items-center justify-center gap-2 rounded border border-divider bg-paper py-2 text-sm font-semibold hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary"
        >
          <Icon name={service} className="size-5" />
          {t(LABELS[service])}
        </Button>
      ))}
      <div className="flex items-center gap-3 py-2 text-xs uppercase text-fg-muted" aria-hidden="true">
        <span className="h-px flex-1 bg-divider" />
        {t('or')}
        <span className="h-px flex-1 bg-divider" />
      </div>
    </div>
  );
}
