import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { secondaryButtonClass } from '../../../ui/form/field-classes';
import { Icon } from '../../../ui/icons';
import { usePinState } from '../../../offline/pins/client';
import type { FileEntry } from '../api/types';
import { usePinActions } from './use-offline-files';

/** Offline, a file the device does not hold says so, and offers to keep it next time (pinned now, fetched when the network returns). */
export function NotAvailableOffline({ entry }: { entry: Pick<FileEntry, 'id' | 'type' | 'name' | 'file_size'> }) {
  const { t } = useTrans();
  const { pin } = usePinActions();
  const offline = usePinState(entry.id);
  const [asked, setAsked] = useState(false);
  const pinned = asked || !!offline;
  return (
    <div role="status" data-testid="not-available-offline" className="flex max-w-sm flex-col items-center gap-4 text-center">
      <Icon name="cloudOff" className="size-16" />
      <p className="text-lg">{t("This file isn't available offline")}</p>
      {pinned ? (
        <p className="text-sm opacity-80">{t('It will be made available offline when the network returns.')}</p>
      ) : (
        <Button
          className={secondaryButtonClass}
          onPress={() => {
            setAsked(true);
            void pin([entry]);
          }}
        >
          {t('Make available offline next time')}
        </Button>
      )}
    </div>
  );
}
