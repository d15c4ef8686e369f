import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTrans } from '../../../i18n/use-trans';
import { ModalDialog } from '../../../ui/Dialog';
import { primaryButtonClass, secondaryButtonClass } from '../../../ui/form/field-classes';
import { Icon } from '../../../ui/icons';
import { useFolderTree } from '../api';
import type { FileEntry } from '../api/types';
import { childrenOf, isWithin } from '../lib/folder-tree';
import { ROOT_HASH } from '../lib/views';

/** Pick a destination in the folder tree (GET drive/folders); a folder cannot go into itself or below. */
export function MoveDialog({ entries, onMove, onClose }: { entries: FileEntry[]; onMove: (destination: string | null) => void; onClose: () => void }) {
  const { t } = useTrans();
  const { folders } = useFolderTree();
  const [current, setCurrent] = useState<string>(ROOT_HASH);
  const movingFolders = entries.filter((e) => e.type === 'folder').map((e) => e.hash);
  const blocked = (hash: string) => movingFolders.some((f) => isWithin(folders, hash, f));
  const parentOf = (hash: string) => folders.find((f) => f.hash === hash)?.parent_id ?? ROOT_HASH;
  const currentName = current === ROOT_HASH ? t('Drive') : (folders.find((f) => f.hash === current)?.name ?? '');
  const children = childrenOf(folders, current);
  const sameParent = entries.every((e) => (e.parent_id ?? ROOT_HASH) === current);

  return (
    <ModalDialog title={t('Move to')} isOpen onOpenChange={(open) => !open && onClose()}>
      <div className="mb-2 flex items-center gap-2">
        {current !== ROOT_HASH && (
          <button
            type="button"
            aria-label={t('Back')}
            onClick={() => setCurrent(parentOf(current))}
            className="rounded-full p-1 hover:bg-fg/10 focus-visible:outline-2 focus-visible:outline-primary"
          >
            <Icon name="arrowBack" className="size-5" />
          </button>
        )}
        <span className="font-medium">{currentName}</span>
      </div>
      <ul aria-label={t('Folders')} className="mb-4 max-h-72 overflow-y-auto rounded border border-divider">
        {children.length === 0 && <li className="px-3 py-2 text-sm text-fg-muted">{t('No folders here')}</li>}
        {children.map((folder) => (
          <li key={folder.hash}>
            <button
              type="button"
              disabled={blocked(folder.hash)}
              onClick={() => setCurrent(folder.hash)}
              className="flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-fg/5 focus-visible:outline-2 focus-visible:outline-primary disabled:opacity-40"
            >
              <Icon name="folder" className="size-5 text-amber-500" />
              <span className="flex-1 truncate">{folder.name}</span>
              <Icon name="chevronRight" className="size-4 text-fg-muted" />
            </button>
          </li>
        ))}
      </ul>
      <div className="flex justify-end gap-2">
        <Button onPress={onClose} className={secondaryButtonClass}>
          {t('Cancel')}
        </Button>
        <Button
          isDisabled={sameParent || blocked(current)}
          onPress={() => {
            onMove(current === ROOT_HASH ? null : current);
            onClose();
          }}
          className={primaryButtonClass}
        >
          {t('Move here')}
        </Button>
      </div>
    </ModalDialog>
  );
}
