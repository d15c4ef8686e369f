import { Button } from 'react-aria-components';
import { formatBytes } from '../../../i18n/format-size';
import { useTrans } from '../../../i18n/use-trans';
import { primaryButtonClass } from '../../../ui/form/field-classes';
import type { LinkEntry, VisitorLink } from '../api/visitor';
import { LinkHeader } from './LinkHeader';
import { LinkPreview } from './LinkPreview';
import { useLinkDownload } from './use-link-download';

/** A linked file: its preview and, when the link allows, a download button. */
export function LinkFileView({ token, link, entry }: { token: string; link: VisitorLink; entry: LinkEntry }) {
  const { t } = useTrans();
  const download = useLinkDownload(token);
  return (
    <>
      <LinkHeader
        link={link}
        title={entry.name}
        actions={
          link.allow_download ? (
            <Button className={primaryButtonClass} onPress={() => download([entry.hash])}>
              {t('Download')} ({formatBytes(entry.file_size)})
            </Button>
          ) : null
        }
      />
      <div className="flex justify-center">
        <LinkPreview entry={entry} />
      </div>
    </>
  );
}
