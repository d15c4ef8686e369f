import type { Readable } from 'node:stream';
import { ValidationError } from '../../lib/errors.js';
import type { Drive } from '../drive/service.js';
import { ensureFolderPath } from '../drive/folder-path.js';
import { ROOT_HASH } from '../drive/access.js';
import { presentByIds } from '../drive/listing.js';
import type { Scope } from '../drive/repository.js';
import type { SettingsService } from '../settings/service.js';
import type { UserWithAccess } from '../users/repository.js';
import type { QuotaService } from '../drive/quota.js';
import { restrictionProblem, rulesFrom, tooLarge, type UploadRules } from './restrictions.js';

export interface UploadTarget {
  /** Folder hash or '0'/null for the root. */
  parentId: string | null | undefined;
  /** `photos/2024/a.jpg`: the folders are created below parentId (folder uploads keep their structure). */
  relativePath?: string | null | undefined;
}

/** Finder litter that folder uploads never carry over. */
export const isJunkFile = (name: string) => name === '.DS_Store';

/** What both upload paths (plain multipart and tus) share: rules, quota and where a file lands. */
export class UploadsService {
  constructor(
    private readonly settings: SettingsService,
    private readonly drive: Drive,
    readonly quota: QuotaService,
  ) {}

  async rules(): Promise<UploadRules> {
    return rulesFrom(await this.settings.all());
  }

  /** Refuses a file by name, declared size and declared type before any byte is stored. */
  async check(file: { name: string; size: number | null; mime: string | null }): Promise<void> {
    if (isJunkFile(file.name)) throw ValidationError.field('file', '.DS_Store files are skipped.');
    const problem = restrictionProblem(await this.rules(), file);
    if (problem) throw ValidationError.field('file', problem.template, problem.values);
  }

  async available(user: UserWithAccess): Promise<number | null> {
    return (await this.drive.entries.spaceUsage(user)).available;
  }

  /** The folders a relative path names, checked: no empty, `.` or `..` segments. */
  folderSegments(relativePath: string | null | undefined): string[] {
    if (!relativePath) return [];
    const segments = relativePath.replace(/\\/g, '/').split('/');
    segments.pop();
    if (segments.some((s) => s === '..' || s === '.' || s.trim() === '')) {
      throw ValidationError.field('relativePath', 'The relative path must be a plain path like "photos/2024/a.jpg".');
    }
    return segments;
  }

  /**
   * Stores a file in its target folder and answers the presented entry: from a
   * stream (plain uploads) or from a complete local file (finished tus uploads).
   */
  async store(
    user: UserWithAccess,
    scope: Scope,
    target: UploadTarget,
    file: { name: string; size?: number; maxBytes?: number | null } & ({ stream: Readable } | { localFile: string }),
  ) {
    const rules = await this.rules();
    const folder = await ensureFolderPath(this.drive.db, user, scope, target.parentId, this.folderSegments(target.relativePath));
    const input = {
      parentId: folder?.hash ?? ROOT_HASH,
      name: file.name,
      size: file.size,
      workspaceId: scope.workspaceId,
      ...(file.maxBytes ? { maxBytes: { limit: file.maxBytes, error: () => new ValidationError({ file: [tooLarge(file.name, file.maxBytes!)] }) } } : {}),
      // The declared type was checked before; the sniffed one is checked before the row exists.
      refuseType: (mime: string) => restrictionProblem({ ...rules, maxSize: null }, { name: file.name, size: null, mime }),
    };
    const entry =
      'stream' in file
        ? await this.drive.files.createFileFromStream(user, { ...input, stream: file.stream })
        : await this.drive.files.createFileFromLocalFile(user, { ...input, file: file.localFile });
    return (await presentByIds(this.drive.db, user.id, [entry.id]))[0]!;
  }
}
