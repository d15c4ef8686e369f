import { Button } from 'react-aria-components';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../api/api-error';
import { sameSitePath } from '../../../../common/same-site-path';
import { getErrorMessage } from '../../../api/errors';
import { formatRelativeTime } from '../../../i18n/relative-time';
import { useTrans } from '../../../i18n/use-trans';
import { Icon, type IconName } from '../../../ui/icons';
import { primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { toast } from '../../../ui/toast/toast-store';
import { useDeclineInvite, useJoinWorkspace } from '../../workspaces/api/mutations';
import { useMarkAsRead } from '../api/mutations';
import type { AppNotification } from '../api/types';

// The named icons notification data uses (spec §3), drawn from our own set.
const IMAGES: Record<string, IconName> = { 'group-add': 'people', people: 'people', 'export-csv': 'download' };

/** App paths navigate in place; anything else (https only, the server allows no other) opens in a new tab. */
export function useOpenAction() {
  const navigate = useNavigate();
  return (action: string) => {
    const path = sameSitePath(action);
    if (path !== null) void navigate(path);
    else if (action.startsWith('https://')) window.open(action, '_blank', 'noopener,noreferrer');
  };
}

/**
 * One notification (spec §4): clicking an unread one marks it read and opens
 * its main action; an invitation carries Join and Decline. Text is rendered as
 * text, never as HTML.
 */
export function NotificationRow({ notification, onOpened }: { notification: AppNotification; onOpened?: () => void }) {
  const { t } = useTrans();
  const markAsRead = useMarkAsRead();
  const open = useOpenAction();
  const join = useJoinWorkspace();
  const decline = useDeclineInvite();
  const { data } = notification;
  const unread = notification.read_at === null;
  const [primary, ...rest] = data.lines;
  const inviteId = notification.type === 'workspace-invitation' ? data.inviteId : undefined;

  const markRead = () => unread && markAsRead.mutate([notification.id]);
  const inviteFailed = (error: unknown) =>
    toast.danger(error instanceof ApiError && error.status === 404 ? t('This invite is no longer valid') : getErrorMessage(error));

  return (
    <li className={`flex gap-3 px-3 py-3 ${unread ? 'bg-primary/5' : ''}`} data-testid="notification" data-unread={unread || undefined}>
      <Icon name={IMAGES[data.image] ?? 'bell'} className="mt-0.5 size-6 shrink-0 text-primary" />
      <div className="min-w-0 flex-1">
        <Button
          className="block w-full text-left outline-none focus-visible:outline-2 focus-visible:outline-primary"
          onPress={() => {
            markRead();
            onOpened?.();
            open(data.mainAction.action);
          }}
        >
          {primary && <span className={`block text-sm ${unread ? 'font-semibold' : ''}`}>{primary.content}</span>}
          {rest.map((line, index) => (
            <span key={index} className="block text-sm text-fg-muted">
              {line.content}
            </span>
          ))}
          <time dateTime={notification.created_at} className="mt-1 block text-xs text-fg-muted">
            {formatRelativeTime(notification.created_at)}
          </time>
        </Button>
        {inviteId && (
          <div className="mt-2 flex gap-2">
            <Button
              className={primaryButtonClass}
              isDisabled={join.isPending || decline.isPending}
              onPress={() =>
                join.mutate(inviteId, {
                  onSuccess: () => {
                    markRead();
                    toast.positive(t('Joined workspace'));
                  },
                  onError: inviteFailed,
                })
              }
            >
              {t('Join')}
            </Button>
            <Button
              className={secondaryButtonClass}
              isDisabled={join.isPending || decline.isPending}
              onPress={() =>
                decline.mutate(inviteId, {
                  onSuccess: () => {
                    markRead();
                    toast.positive(t('Declined workspace invitation'));
                  },
                  onError: inviteFailed,
                })
              }
            >
              {t('Decline')}
            </Button>
          </div>
        )}
      </div>
      {unread && <span aria-label={t('Unread')} className="mt-2 size-2 shrink-0 rounded-full bg-primary" />}
    </li>
  );
}
