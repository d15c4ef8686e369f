import { useState } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { primaryButtonClass } from '../../ui/form/field-classes';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast/toast-store';
import { useUpdateSubscriptions } from './api/mutations';
import { useNotificationSubscriptions } from './api/queries';
import type { Channel, Selection } from './api/types';
import { browserPermissionGranted, groupState, nextGroupValue, setChannel, shownSelections } from './lib/group-state';
import { enableBrowserPush, PUSH_BLOCKED } from './lib/push-subscription';

const CHANNEL_LABELS: Record<string, string> = { email: 'Email', browser: 'Browser' };

/** Spec §2/§4 "Notification preferences": edited locally, saved with one action. */
export function NotificationSettingsPage() {
  const { t } = useTrans();
  const query = useNotificationSubscriptions();
  const update = useUpdateSubscriptions();
  // Edits stay local until saved; until the first one, the server's choices show.
  const [edited, setEdited] = useState<Selection[] | null>(null);
  const [blocked, setBlocked] = useState(false);
  const fromServer = query.data ? shownSelections(query.data.user_selections, browserPermissionGranted()) : null;
  const selections = edited ?? fromServer;

  if (!query.data || !selections) return <Spinner />;
  const channels = query.data.available_channels as Channel[];

  // Turning on the browser channel asks the browser first; a refusal leaves it off (spec §8).
  const change = async (notifIds: string[], channel: Channel, on: boolean) => {
    if (channel === 'browser' && on) {
      const outcome = await enableBrowserPush();
      if (!outcome.ok && outcome.reason === 'blocked') {
        setBlocked(true);
        return;
      }
      setBlocked(false);
    }
    setEdited((current) => setChannel(current ?? fromServer ?? [], notifIds, channel, on));
  };

  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="mb-4 text-2xl font-semibold">{t('Notification preferences')}</h1>
      {blocked && (
        <p role="alert" className="mb-4 rounded border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger">
          {t(PUSH_BLOCKED)}
        </p>
      )}
      {query.data.subscriptions.map((group) => {
        const ids = group.subscriptions.map((s) => s.notif_id);
        return (
          <table key={group.group_name} className="mb-6 w-full text-sm">
            <thead>
              <tr className="border-b border-divider">
                <th className="py-2 text-left font-semibold">{t(group.group_name)}</th>
                {channels.map((channel) => {
                  const state = groupState(selections, ids, channel);
                  return (
                    <th key={channel} className="w-24 py-2 text-center font-normal">
                      <label className="inline-flex flex-col items-center gap-1">
                        <input
                          type="checkbox"
                          aria-label={`${t(group.group_name)} ${t(CHANNEL_LABELS[channel] ?? channel)}`}
                          checked={state === 'all'}
                          ref={(input) => {
                            if (input) input.indeterminate = state === 'some';
                          }}
                          onChange={() => void change(ids, channel, nextGroupValue(state))}
                        />
                        {t(CHANNEL_LABELS[channel] ?? channel)}
                      </label>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {group.subscriptions.map((entry) => (
                <tr key={entry.notif_id} className="border-b border-divider">
                  <td className="py-2">{t(entry.name)}</td>
                  {channels.map((channel) => (
                    <td key={channel} className="py-2 text-center">
                      <input
                        type="checkbox"
                        aria-label={`${t(entry.name)} ${t(CHANNEL_LABELS[channel] ?? channel)}`}
                        checked={selections.find((s) => s.notif_id === entry.notif_id)?.channels[channel] ?? false}
                        onChange={(event) => void change([entry.notif_id], channel, event.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
      <Button
        className={primaryButtonClass}
        isDisabled={update.isPending}
        onPress={() =>
          update.mutate(selections, {
            onSuccess: ({ message }) => toast.positive(message || t('Updated preferences')),
            onError: (error) => toast.danger(getErrorMessage(error)),
          })
        }
      >
        {t('Update Preferences')}
      </Button>
    </section>
  );
}
