import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { readDroppedFiles } from '../../uploads';
import { useFilesChosen } from '../hooks/use-files-chosen';
import { isFileDrag } from '../lib/entry-drag';

/** Files dragged in from the computer go to the upload hook point with this folder as target. */
export function FileDropZone({ enabled, target, children }: { enabled: boolean; target: string; children: ReactNode }) {
  const { t } = useTrans();
  const onFilesChosen = useFilesChosen();
  const [over, setOver] = useState(false);
  return (
    <div
      className="relative flex min-h-0 min-w-0 flex-1 flex-col"
      onDragOver={(event) => {
        if (!enabled || !isFileDrag(event.dataTransfer)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        if (!enabled || !isFileDrag(event.dataTransfer)) return;
        event.preventDefault();
        setOver(false);
        // Taken synchronously: the browser empties the DataTransfer once the event returns.
        // Dropped folders are read recursively and keep their structure.
        void readDroppedFiles(event.dataTransfer).then((files) => onFilesChosen(files, target));
      }}
    >
      {children}
      {over && (
        <div className="pointer-events-none absolute inset-2 flex items-center justify-center rounded-lg border-2 border-dashed border-primary bg-primary/10 text-primary">
          {t('Drop files or folders here')}
        </div>
      )}
    </div>
  );
}
