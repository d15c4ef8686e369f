import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useTrans } from '../../../i18n/use-trans';
import { uploadableFiles, useFilesChosen } from '../hooks/use-files-chosen';

/** A button over a hidden file picker; the chosen files go to the upload hook point. */
export function UploadButton({
  target,
  accept,
  className,
  children,
  label,
  view,
}: {
  /** The hash of the folder the files go to ('0': the root). */
  target: string;
  accept?: string;
  className: string;
  children: ReactNode;
  label?: string;
  /** The SQL backups view's picker takes only .sql and .bak files. */
  view?: 'sql';
}) {
  const { t } = useTrans();
  const input = useRef<HTMLInputElement>(null);
  const onFilesChosen = useFilesChosen();
  return (
    <>
      <button type="button" className={className} aria-label={label} onClick={() => input.current?.click()}>
        {children}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={t('Upload files')}
        accept={accept}
        onChange={(event) => {
          onFilesChosen(uploadableFiles(event.target.files ?? []), target, view);
          event.target.value = '';
        }}
      />
    </>
  );
}
