import { readCookie } from '../../../api/cookies';
import { driveDatabase } from '../../../offline/db';
import type { DriveDatabase } from '../../../offline/db';
import { useBootstrap } from '../../bootstrap/store';

/** The signed-in user's offline copy of the drive (per workspace). */
export function useDriveDb(): DriveDatabase {
  const { user } = useBootstrap();
  const workspace = typeof document === 'undefined' ? '0' : (readCookie('activeWorkspaceId') ?? '0');
  return driveDatabase(user?.id ?? 'guest', workspace || '0');
}
