import type { MailMessage } from '../../mail/mailer.js';
import type { Notifier } from '../notifications/notifier.js';

export interface InvitedNotice {
  userId: number;
  inviteId: string;
  inviterName: string;
  workspaceName: string;
  /** The invite email (its link signs in and comes back to the invite): what the email channel sends. */
  mail: (to: string) => Promise<MailMessage>;
}

/**
 * Spec §3/§4: an invitation to someone who already has an account arrives as
 * a notification with Join and Decline (the bell, and email and web push as
 * they chose). Both buttons lead to the drive's invite prompt; the app acts
 * on `inviteId`.
 */
export function workspaceInvitation(notifier: Notifier, notice: InvitedNotice): Promise<string | null> {
  const prompt = `/drive?invite=${encodeURIComponent(notice.inviteId)}`;
  return notifier.notify(
    notice.userId,
    'workspace-invitation',
    (t) => ({
      image: 'group-add',
      lines: [
        { content: t(':inviter invited you to join :workspace', { inviter: notice.inviterName, workspace: notice.workspaceName }), type: 'primary' },
        { content: t('Join to see its files and work on them together.'), type: 'secondary' },
      ],
      mainAction: { label: t('Join'), action: prompt },
      buttonActions: [
        { label: t('Join'), action: prompt },
        { label: t('Decline'), action: prompt },
      ],
      inviteId: notice.inviteId,
    }),
    { mail: notice.mail },
  );
}
