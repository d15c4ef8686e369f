import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { ActionButton } from '../../../ui/ActionButton';
import { Icon } from '../../../ui/icons';
import { toast } from '../../../ui/toast/toast-store';
import { createDocument } from '../../editor/api';
import { documentPath } from '../lib/documents';
import { useActiveWorkspace } from '../../../api/active-workspace';
import { driveKeys } from '../api/keys';

/** "New document": an empty .docx in this folder, opened in the editor at once. */
export function NewDocumentButton({ parentId, offline, className }: { parentId: string | null; offline: string | null; className: string }) {
  const { t } = useTrans();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const workspaceId = useActiveWorkspace();
  const handleCreate = async () => {
    setBusy(true);
    try {
      const entry = await createDocument(parentId);
      // The folder's cached listing lacks the new document: back from the editor it is fetched again.
      void queryClient.invalidateQueries({ queryKey: driveKeys.all(workspaceId) });
      void queryClient.invalidateQueries({ queryKey: driveKeys.usage });
      void navigate(documentPath(entry.hash));
    } catch (error) {
      toast.danger(getErrorMessage(error, t('Could not create the document')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <ActionButton
      label={t('New document')}
      disabledReason={offline ?? (busy ? t('Loading...') : null)}
      onPress={() => void handleCreate()}
      className={className}
    >
      <Icon name="noteAdd" className="size-5 shrink-0" />
      <span className="truncate">{t('New document')}</span>
    </ActionButton>
  );
}
