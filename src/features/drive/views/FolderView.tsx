import { useParams } from 'react-router-dom';
import { DRIVE_VIEWS, ROOT_HASH } from '../lib/views';
import type { DriveViewId } from '../lib/views';
import { ListingPage } from './ListingPage';

/** /drive and /drive/folders/:hash ('0' is the root). */
export function FolderView() {
  const { hash = ROOT_HASH } = useParams();
  return <ListingPage key={hash} view={DRIVE_VIEWS.folder} folderHash={hash} />;
}

/** /drive/recent, /sql, /shares, /trash, /starred. */
export function FixedView({ id }: { id: DriveViewId }) {
  return <ListingPage key={id} view={DRIVE_VIEWS[id]} />;
}
