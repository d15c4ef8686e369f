import { useAtom } from 'jotai';
import { useTrans } from '../../../i18n/use-trans';
import { useCreateFolder, useRenameEntry } from '../api';
import { useDriveActions } from '../hooks/use-drive-actions';
import { dialogAtom } from '../state';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { MoveDialog } from './MoveDialog';
import { ShareDialog } from './ShareDialog';
import { NameDialog } from '../../../ui/NameDialog';

/** The one open drive dialog, whichever listing asked for it. */
export function DriveDialogs() {
  const { t } = useTrans();
  const [dialog, setDialog] = useAtom(dialogAtom);
  const createFolder = useCreateFolder();
  const rename = useRenameEntry();
  const { moveTo, deleteRun, isDeleting } = useDriveActions();
  const close = () => setDialog(null);
  if (!dialog) return null;
  switch (dialog.type) {
    case 'newFolder':
      return (
        <NameDialog
          title={t('New folder')}
          submitLabel={t('Create')}
          initialName={t('Untitled folder')}
          isPending={createFolder.isPending}
          onSubmit={(name) => createFolder.mutateAsync({ name, parentId: dialog.parentId })}
          onClose={close}
        />
      );
    case 'rename':
      return (
        <NameDialog
          title={t('Rename')}
          submitLabel={t('Save')}
          initialName={dialog.entry.name}
          isPending={rename.isPending}
          onSubmit={(name) => (name === dialog.entry.name ? Promise.resolve() : rename.mutateAsync({ id: dialog.entry.id, name }))}
          onClose={close}
        />
      );
    case 'share':
      return <ShareDialog entries={dialog.entries} onClose={close} />;
    case 'move':
      return <MoveDialog entries={dialog.entries} onMove={(destination) => moveTo(dialog.entries, destination)} onClose={close} />;
    case 'deleteForever':
      return (
        <ConfirmDialog
          title={t('Delete forever')}
          body={t('These files and folders will be deleted permanently. This cannot be undone.')}
          confirmLabel={t('Delete forever')}
          isPending={isDeleting}
          onConfirm={() => {
            close();
            void deleteRun({ entryIds: dialog.entries.map((e) => e.id), deleteForever: true });
          }}
          onClose={close}
        />
      );
    case 'emptyTrash':
      return (
        <ConfirmDialog
          title={t('Empty trash')}
          body={t('Everything in the trash will be deleted permanently. This cannot be undone.')}
          confirmLabel={t('Empty trash')}
          isPending={isDeleting}
          onConfirm={() => {
            close();
            void deleteRun({ entryIds: [], emptyTrash: true });
          }}
          onClose={close}
        />
      );
  }
}
