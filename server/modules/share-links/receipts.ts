import type { Notifier } from '../notifications/notifier.js';
import type { LinkReceipt } from './visitor.js';

/**
 * The owner's receipts (issue 35), for links that ask for them: the link's
 * first download, and each file dropped into a file-drop folder. In the bell
 * always; by email and push as the owner's preferences say.
 */
export async function linkReceipt(notifier: Pick<Notifier, 'notify'>, notice: LinkReceipt): Promise<void> {
  if (notice.kind === 'downloaded') {
    await notifier.notify(notice.ownerId, 'link-downloaded', (t) => ({
      image: 'export-csv',
      lines: [{ content: t('Someone downloaded :name through your link', { name: notice.fileName }), type: 'primary' }],
      mainAction: { label: t('Open'), action: '/drive' },
    }));
    return;
  }
  await notifier.notify(notice.ownerId, 'file-dropped', (t) => ({
    image: 'export-csv',
    lines: [{ content: t('Someone dropped :file into :folder', { file: notice.fileName, folder: notice.entryName }), type: 'primary' }],
    mainAction: { label: t('Open'), action: `/drive/folders/${notice.entryHash}` },
  }));
}
