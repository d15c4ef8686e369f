import { useState } from 'react';
import { Button } from 'react-aria-components';
import { getErrorMessage, getFieldError } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { ModalDialog } from '../../../ui/Dialog';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { Spinner } from '../../../ui/Spinner';
import { toast } from '../../../ui/toast/toast-store';
import { useOnline } from '../../../ui/use-online';
import { LinkSection } from '../../sharing/components/LinkSection';
import { EmailChipInput } from '../../workspaces/components/EmailChipInput';
import { canSendInvites, withPending, type EmailChip } from '../../workspaces/lib/email-chips';
import { useChangeShare, useRemoveShare, useShareEntries, useShares, type SharePermission } from '../api/shares';
import type { FileEntry } from '../api/types';

const PERMISSIONS: { id: SharePermission; label: string }[] = [
  { id: 'view', label: 'Can view' },
  { id: 'edit', label: 'Can edit' },
];

/** Share entries with people by email (can view or can edit), see and change who has access, and share one entry by link. */
export function ShareDialog({ entries, onClose }: { entries: FileEntry[]; onClose: () => void }) {
  const { t } = useTrans();
  const online = useOnline();
  const first = entries[0]!;
  const shares = useShares(first.hash);
  const share = useShareEntries(first.hash);
  const change = useChangeShare(first.hash);
  const remove = useRemoveShare(first.hash);
  const [chips, setChips] = useState<EmailChip[]>([]);
  const [text, setText] = useState('');
  const toSend = withPending(chips, text);
  const [permission, setPermission] = useState<SharePermission>('view');
  const [error, setError] = useState<string | undefined>();
  const title = entries.length === 1 ? t('Share ":name"', { name: first.name }) : t('Share :count items', { count: entries.length });

  const send = () => {
    setError(undefined);
    share.mutate(
      { entryIds: entries.map((e) => e.hash), emails: toSend.map((c) => c.name), permission },
      {
        onSuccess: ({ message }) => {
          setChips([]);
          setText('');
          toast.positive(message);
        },
        onError: (failure) => setError(getFieldError(failure, 'emails.0') ?? getErrorMessage(failure)),
      },
    );
  };

  return (
    <ModalDialog title={title} isOpen onOpenChange={(open) => !open && onClose()} className="max-w-xl">
      {!online ? (
        <p className="text-sm text-fg-muted">{t('Sharing needs the network. Try again when you are back online.')}</p>
      ) : (
        <>
          <section aria-label={t('Share with people')} className="space-y-2">
            <EmailChipInput chips={chips} onChange={setChips} text={text} onTextChange={setText} disabled={share.isPending} />
            <div className="flex items-center gap-2">
              <select
                aria-label={t('Permission')}
                value={permission}
                onChange={(event) => setPermission(event.target.value as SharePermission)}
                className={`${inputClass} flex-1`}
              >
                {PERMISSIONS.map((p) => (
                  <option key={p.id} value={p.id}>
                    {t(p.label)}
                  </option>
                ))}
              </select>
              <Button isDisabled={!canSendInvites(toSend, share.isPending)} onPress={send} className={primaryButtonClass}>
                {t('Share')}
              </Button>
            </div>
            {error && (
              <p role="alert" className="text-sm text-danger">
                {error}
              </p>
            )}
          </section>
          {entries.length === 1 && (
            <>
              <h3 className="mb-2 mt-4 text-sm font-semibold">{t('Who has access')}</h3>
              {shares.isLoading && <Spinner />}
              {shares.data?.length === 0 && <p className="text-sm text-fg-muted">{t('Not shared with anyone yet.')}</p>}
              <ul aria-label={t('Who has access')} className="divide-y divide-divider">
                {(shares.data ?? []).map((row) => (
                  <li key={row.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2" data-testid="share-row">
                    <div className="min-w-40 flex-1 basis-40">
                      <div className="truncate text-sm font-medium">{row.user.display_name}</div>
                      <div className="truncate text-xs text-fg-muted">{row.user.email}</div>
                    </div>
                    <select
                      aria-label={`${t('Permission')}: ${row.user.display_name}`}
                      value={row.permission}
                      disabled={change.isPending}
                      onChange={(event) =>
                        change.mutate(
                          { shareId: row.id, permission: event.target.value as SharePermission },
                          { onError: (e) => toast.danger(getErrorMessage(e)) },
                        )
                      }
                      className={`${inputClass} w-32`}
                    >
                      {PERMISSIONS.map((p) => (
                        <option key={p.id} value={p.id}>
                          {t(p.label)}
                        </option>
                      ))}
                    </select>
                    <Button
                      className={secondaryButtonClass}
                      isDisabled={remove.isPending}
                      onPress={() =>
                        remove.mutate(row.id, { onSuccess: ({ message }) => toast.positive(message), onError: (e) => toast.danger(getErrorMessage(e)) })
                      }
                    >
                      {t('Remove')}
                    </Button>
                  </li>
                ))}
              </ul>
              <LinkSection entry={first} />
            </>
          )}
        </>
      )}
      <div className="mt-4 flex justify-end">
        <Button onPress={onClose} className={secondaryButtonClass}>
          {t('Close')}
        </Button>
      </div>
    </ModalDialog>
  );
}
