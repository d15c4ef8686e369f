import { useActiveWorkspace } from '../../../api/active-workspace';
import { driveDatabase } from '../../../offline/db';
import type { DriveDatabase } from '../../../offline/db';
import { useBootstrap } from '../../bootstrap/store';

/** The signed-in user's offline copy of the drive (per workspace). */
export function useDriveDb(): DriveDatabase {
  const { user } = useBootstrap();
  return driveDatabase(user?.id ?? 'guest', useActiveWorkspace());
}
