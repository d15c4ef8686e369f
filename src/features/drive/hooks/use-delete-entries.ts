import { useCallback } from 'react';
import { translate } from '../../../i18n/i18n';
import { toast } from '../../../ui/toast/toast-store';
import { useDeleteEntries } from '../api';
import type { DeleteBody } from '../api/types';
import { failureMessage, pendingMessage, successMessage } from '../lib/trash-messages';

/**
 * POST file-entries/delete with the spec's toasts: a loading toast
 * ('Moving to trash...' / 'Emptying trash...') replaced by the outcome
 * ('Moved N items to trash', 'Permanently deleted N items', 'Emptied trash')
 * or the failure of §8.
 */
export function useDeleteWithToasts() {
  const mutation = useDeleteEntries();
  const { mutateAsync } = mutation;
  const run = useCallback(
    async (body: DeleteBody): Promise<boolean> => {
      const pending = pendingMessage(body);
      const id = toast.loading(translate(pending.key));
      try {
        const response = await mutateAsync(body);
        const done = successMessage(response);
        toast.positive(translate(done.key, done.values), { id });
        return true;
      } catch (error) {
        toast.danger(translate(failureMessage(body, error).key), { id });
        return false;
      }
    },
    [mutateAsync],
  );
  return { run, isPending: mutation.isPending };
}
