import { useSetAtom } from 'jotai';
import { useTrans } from '../../../i18n/use-trans';
import { ActionButton } from '../../../ui/ActionButton';
import { Icon } from '../../../ui/icons';
import type { Folder } from '../api/types';
import { OFFLINE_REASON } from '../lib/actions';
import { ROOT_HASH } from '../lib/views';
import type { DriveView } from '../lib/views';
import { dialogAtom } from '../state';
import { openFilePicker, SQL_ACCEPT } from '../../uploads/pickers';
import { useFilesChosen } from '../hooks/use-files-chosen';
import { UploadButton } from './UploadButton';
import { NewDocumentButton } from './NewDocumentButton';

const buttonClass =
  'inline-flex min-w-0 items-center gap-2 rounded border border-divider px-3 py-1.5 text-sm font-semibold hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

/** The page's own actions (hasActions): new folder and upload in folders, import in SQL, empty trash in trash. */
export function PageActions({
  view,
  folder,
  target,
  online,
  isEmpty,
}: {
  view: DriveView;
  folder: Folder | null;
  /** The hash of the folder uploads go to (from the address, even before the listing loads). */
  target: string;
  online: boolean;
  isEmpty: boolean;
}) {
  const { t } = useTrans();
  const setDialog = useSetAtom(dialogAtom);
  const onFilesChosen = useFilesChosen();
  if (!view.hasActions) return null;
  const offline = online ? null : t(OFFLINE_REASON);

  if (view.id === 'trash') {
    return (
      <ActionButton
        label={t('Empty trash')}
        disabledReason={offline ?? (isEmpty ? t('Trash is empty') : null)}
        onPress={() => setDialog({ type: 'emptyTrash' })}
        className={`${buttonClass} size-auto! rounded!`}
      >
        <Icon name="delete" className="size-5" />
        <span>{t('Empty trash')}</span>
      </ActionButton>
    );
  }
  const canUpload = view.canUpload(folder);
  return (
    // Every button is named on a phone too (issue 32.8): there they take a row of their own, two to a line.
    <div className="grid w-full grid-cols-2 gap-2 sm:flex sm:w-auto sm:items-center" data-testid="page-actions">
      {/* A folder is made with files.create in its parent, as the server checks; unknown (not listed yet) still offers it. */}
      {view.id === 'folder' && (!folder || folder.permissions.includes('files.create')) && (
        <ActionButton
          label={t('New folder')}
          disabledReason={offline}
          onPress={() => setDialog({ type: 'newFolder', parentId: target !== ROOT_HASH ? target : null })}
          className={`${buttonClass} size-auto! rounded!`}
        >
          <Icon name="createNewFolder" className="size-5 shrink-0" />
          <span className="truncate">{t('New folder')}</span>
        </ActionButton>
      )}
      {view.id === 'folder' && canUpload && (
        <NewDocumentButton parentId={target !== ROOT_HASH ? target : null} offline={offline} className={`${buttonClass} size-auto! rounded!`} />
      )}
      {canUpload && (
        <UploadButton
          target={target}
          accept={view.id === 'sql' ? SQL_ACCEPT : undefined}
          view={view.id === 'sql' ? 'sql' : undefined}
          className={buttonClass}
          label={t(view.id === 'sql' ? 'Import database' : 'Upload')}
        >
          <Icon name="upload" className="size-5 shrink-0" />
          <span className="truncate">{t(view.id === 'sql' ? 'Import database' : 'Upload')}</span>
        </UploadButton>
      )}
      {canUpload && view.id === 'folder' && (
        <ActionButton
          label={t('Upload folder')}
          disabledReason={null}
          onPress={() => void openFilePicker({ folder: true }).then((files) => onFilesChosen(files, target))}
          className={`${buttonClass} size-auto! rounded!`}
        >
          <Icon name="driveFolderUpload" className="size-5 shrink-0" />
          <span className="truncate">{t('Upload folder')}</span>
        </ActionButton>
      )}
    </div>
  );
}
