import { Button } from 'react-aria-components';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../api/api-error';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { Icon } from '../../../ui/icons';
import { primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { toast } from '../../../ui/toast/toast-store';
import { useDeclineInvite, useJoinWorkspace } from '../api/mutations';
import { InviteSummary, useInvitePreview } from './InviteSummary';

export const INVITE_PARAM = 'invite';

/**
 * An invite link (the email's, through sign-in or registration) lands on the
 * drive with ?invite=…: the invitee accepts or declines here, as they would
 * from the notification (spec §4 "Workspace invite").
 */
export function InvitePrompt() {
  const { t } = useTrans();
  const [params, setParams] = useSearchParams();
  const inviteId = params.get(INVITE_PARAM);
  const join = useJoinWorkspace();
  const decline = useDeclineInvite();
  const preview = useInvitePreview(inviteId);
  if (!inviteId) return null;
  const done = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(INVITE_PARAM);
        return next;
      },
      { replace: true },
    );
  const failed = (error: unknown) => {
    toast.danger(error instanceof ApiError && error.status === 404 ? t('This invite is no longer valid') : getErrorMessage(error));
    done();
  };
  const pending = join.isPending || decline.isPending;
  return (
    <div
      role="region"
      aria-label={t('Workspace invitation')}
      className="m-3 flex flex-wrap items-center gap-3 rounded-lg border border-primary/40 bg-primary/10 px-4 py-3"
    >
      <Icon name="people" className="size-6 text-primary" />
      <div className="flex-1 text-sm">
        {/* Until the preview answers (or if the link is no longer valid) the general line stands in. */}
        <InviteSummary inviteId={inviteId} />
        {!preview.data && <p>{t('You have been invited to join a workspace.')}</p>}
      </div>
      <Button
        isDisabled={pending}
        className={primaryButtonClass}
        onPress={() =>
          join.mutate(inviteId, {
            onSuccess: () => {
              toast.positive(t('Joined workspace'));
              done();
            },
            onError: failed,
          })
        }
      >
        {t('Join')}
      </Button>
      <Button
        isDisabled={pending}
        className={secondaryButtonClass}
        onPress={() =>
          decline.mutate(inviteId, {
            onSuccess: () => {
              toast.positive(t('Declined workspace invitation'));
              done();
            },
            onError: failed,
          })
        }
      >
        {t('Decline')}
      </Button>
    </div>
  );
}
