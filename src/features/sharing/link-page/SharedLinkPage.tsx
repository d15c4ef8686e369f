import { useParams } from 'react-router-dom';
import { isApiError } from '../../../api/api-error';
import { getErrorMessage } from '../../../api/errors';
import { useTrans } from '../../../i18n/use-trans';
import { Spinner } from '../../../ui/Spinner';
import { useOnline } from '../../../ui/use-online';
import { useVisitorLink } from '../api/visitor';
import { LinkDropView } from './LinkDropView';
import { LinkFileView } from './LinkFileView';
import { LinkFolderView } from './LinkFolderView';
import { LinkPasswordForm } from './LinkPasswordForm';

/**
 * The page a share link opens (/drive/s/{token}), for guests, signed-in people
 * and the installed app alike: the password first when one is set, then a
 * file's preview and download, a folder's listing, or a file drop.
 */
export function SharedLinkPage() {
  const { token = '' } = useParams();
  const { t } = useTrans();
  const online = useOnline();
  const link = useVisitorLink(token);

  let body;
  if (link.isLoading) body = <Spinner />;
  else if (link.error) {
    const gone = isApiError(link.error) && (link.error.status === 404 || link.error.status === 410);
    body = (
      <div className="py-16 text-center" role="alert">
        <h1 className="mb-2 text-xl font-semibold">{gone ? getErrorMessage(link.error) : t('There was an issue loading this link')}</h1>
        <p className="text-fg-muted">
          {!online
            ? t('Opening a shared link needs the network. Try again when you are back online.')
            : gone
              ? t('Ask the person who sent it for a new one.')
              : t('Please try again later')}
        </p>
      </div>
    );
  } else if (link.data?.requires_password || !link.data?.entry) body = <LinkPasswordForm token={token} />;
  else if (link.data.file_drop) body = <LinkDropView token={token} link={link.data} entry={link.data.entry} />;
  else if (link.data.entry.type === 'folder') body = <LinkFolderView token={token} link={link.data} entry={link.data.entry} />;
  else body = <LinkFileView token={token} link={link.data} entry={link.data.entry} />;

  return <div className="mx-auto w-full max-w-5xl px-4 py-6">{body}</div>;
}

export default SharedLinkPage;
