import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/http';
import { useTrans } from '../../../i18n/use-trans';

/** The invite id an invite link carries: on the drive as ?invite=, on the join pages inside ?redirect=. */
export function inviteIdFrom(search: URLSearchParams): string | null {
  const direct = search.get('invite');
  if (direct) return direct;
  const redirect = search.get('redirect');
  if (!redirect?.startsWith('/')) return null;
  return new URL(redirect, 'http://invite.local').searchParams.get('invite');
}

/** GET workspace/invite/{inviteId}: the workspace and inviter a link names (the link is the proof, guests too). */
export function useInvitePreview(inviteId: string | null) {
  return useQuery({
    queryKey: ['workspace-invite', inviteId],
    enabled: !!inviteId,
    retry: false,
    queryFn: async ({ signal }) => (await api.get('workspace/invite/{inviteId}', { path: { inviteId: inviteId ?? '' }, signal })).invite,
  });
}

/** "Ada Lovelace invited you to join Design team." — or nothing until the preview answers (an invalid link says so on joining). */
export function InviteSummary({ inviteId, className }: { inviteId: string | null; className?: string }) {
  const { t } = useTrans();
  const preview = useInvitePreview(inviteId);
  if (!preview.data) return null;
  const { workspace, inviter } = preview.data;
  return (
    <p className={className} data-testid="invite-summary">
      {inviter
        ? t(':inviter invited you to join :workspace.', { inviter, workspace: workspace.name })
        : t('You have been invited to join :workspace.', { workspace: workspace.name })}
    </p>
  );
}
