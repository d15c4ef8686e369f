import { getErrorMessage } from '../../api/errors';
import { useTrans } from '../../i18n/use-trans';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { toast } from '../../ui/toast/toast-store';

/** What ConfirmDelete needs of a `useDeleteX()` mutation that takes the row's id. */
export interface DeleteMutation {
  mutate: (id: number, options: { onSuccess: () => void; onError: (error: unknown) => void; onSettled: () => void }) => void;
  isPending: boolean;
}

/**
 * "Delete X?" for an admin list: deletes on confirm, toasts `success` or the
 * server's reason, and closes either way (a failed delete leaves the row in
 * place, so asking again is one click away).
 */
export function ConfirmDelete({
  id,
  title,
  body,
  success,
  mutation,
  onClose,
  onDeleted,
}: {
  id: number;
  title: string;
  body: string;
  success: string;
  mutation: DeleteMutation;
  onClose: () => void;
  /** After the success toast, for a screen that shows the deleted item itself. */
  onDeleted?: () => void;
}) {
  const { t } = useTrans();
  return (
    <ConfirmDialog
      title={title}
      body={body}
      confirmLabel={t('Delete')}
      isPending={mutation.isPending}
      onClose={onClose}
      onConfirm={() =>
        mutation.mutate(id, {
          onSuccess: () => {
            toast(success);
            onDeleted?.();
          },
          onError: (e) => toast.danger(getErrorMessage(e)),
          onSettled: onClose,
        })
      }
    />
  );
}
