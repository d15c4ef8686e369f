import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { primaryButtonClass, secondaryButtonClass } from '../../ui/form/field-classes';
import { toast } from '../../ui/toast/toast-store';
import type { Bootstrap } from '../../api/bootstrap-types';
import { PasskeysPanel } from '../account/PasskeysPanel';
import { TwoFactorSection } from '../account/TwoFactorSection';
import { setBootstrap } from '../bootstrap/store';

/**
 * After the password, when a role of the account requires two-factor sign-in
 * and it has none (issue 36): the server lets the session reach only these
 * set-up calls; once a factor is set up, the bootstrap data is the user's.
 */
export function TwoFactorSetupStep({ onSignedIn, onCancel }: { onSignedIn: (bootstrapData: Bootstrap) => void; onCancel: () => void }) {
  const { t } = useTrans();
  const client = useQueryClient();
  const [isPending, setPending] = useState(false);
  const handleContinue = () => {
    setPending(true);
    api
      .get('bootstrap-data')
      .then((r) => {
        const data = r.data as Bootstrap;
        if (!data.user) {
          toast.danger(t('Your role requires two-factor sign-in. Set it up to continue.'));
          return;
        }
        // Stored before going on, as every sign-in does: the guards read it (the cached data was the held-back guest's).
        setBootstrap(client, data);
        onSignedIn(data);
      })
      .catch((error: unknown) => toast.danger(getErrorMessage(error)))
      .finally(() => setPending(false));
  };
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">{t('Set up two-factor sign-in')}</h1>
      <p role="status" className="rounded bg-primary/10 p-3 text-sm">
        {t('Your role requires two-factor sign-in. Set it up to continue.')}
      </p>
      <TwoFactorSection />
      <PasskeysPanel />
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          {t('Cancel')}
        </button>
        <button type="button" className={primaryButtonClass} disabled={isPending} onClick={handleContinue}>
          {t('Continue')}
        </button>
      </div>
    </div>
  );
}
