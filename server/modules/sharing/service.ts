import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { HttpError, NotFound, ValidationError } from '../../lib/errors.js';
import { userIdOf, type Actor } from '../access/actor.js';
import { requireEntries, requireEntry } from '../access/require.js';
import type { ActivityRecorder } from '../activity/recorder.js';
import type { SharesRepository } from './repository.js';
import type { SharePermission, ShareOut } from './schemas.js';

export const SHARE_NOT_FOUND = 'This share does not exist.';

export interface SharingDeps {
  findUserByEmail(email: string): Promise<{ id: number } | undefined>;
  sharerName(userId: number): Promise<string>;
  /** The file-entry-shared notification (in-app, and email and web push as the recipient chose). */
  notifyShared(notice: { userId: number; sharerName: string; entries: { name: string }[] }): Promise<unknown>;
  /** Counts the people a user notifies by sharing (429 past the hourly allowance). */
  countRecipients(userId: number, people: number): Promise<void>;
  /** Where shares, changes and removals are recorded as activity. */
  activity: ActivityRecorder;
}

/**
 * Sharing with people. Who may share, change or remove a share is the access
 * policy's answer (files.share on the entry); what a share then lets its
 * recipient do is the share grant source's.
 */
export class SharingService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repo: SharesRepository,
    private readonly deps: SharingDeps,
  ) {}

  async list(actor: Actor, hash: string): Promise<ShareOut[]> {
    const entry = await requireEntry(this.db, actor, 'files.share', hash);
    return this.repo.forEntry(entry.id);
  }

  /** Every address must belong to an account, and not the caller's own; then each gets the entries, once notified. */
  async share(actor: Actor, hashes: string[], emails: string[], permission: SharePermission): Promise<ShareOut[]> {
    const me = userIdOf(actor);
    const entries = await requireEntries(this.db, actor, 'files.share', hashes);
    const recipients: number[] = [];
    for (const [index, email] of emails.entries()) {
      const user = await this.deps.findUserByEmail(email);
      if (!user) throw ValidationError.field(`emails.${index}`, 'No account uses :email.', { email });
      if (user.id === me) throw ValidationError.field(`emails.${index}`, 'You cannot share with yourself.');
      recipients.push(user.id);
    }
    await this.deps.countRecipients(me, recipients.length);
    const sharerName = await this.deps.sharerName(me);
    for (const userId of recipients) {
      const added = [];
      for (const entry of entries) {
        // The owner already has everything: a share with them would change nothing.
        if (entry.owner_id === userId) continue;
        if (await this.repo.upsert(entry.id, userId, permission, me)) {
          added.push({ name: entry.name });
          await this.deps.activity.record({ action: 'shared', entries: [entry], actor, details: { with: emails[recipients.indexOf(userId)]!, permission } });
        }
      }
      if (added.length) await this.deps.notifyShared({ userId, sharerName, entries: added });
    }
    return this.repo.forEntry(entries[0]!.id);
  }

  async change(actor: Actor, shareId: number, permission: SharePermission): Promise<ShareOut[]> {
    const share = await this.requireShare(actor, shareId);
    await this.repo.setPermission(share.id, permission);
    const entry = { id: share.entry_id, name: share.name, type: share.type, owner_id: share.owner_id, workspace_id: share.workspace_id };
    await this.deps.activity.record({
      action: 'permission-changed',
      entries: [entry],
      actor,
      details: { with: await this.deps.sharerName(share.user_id), permission },
    });
    return this.repo.forEntry(share.entry_id);
  }

  /** The recipient may drop a share with them; otherwise it takes files.share on the entry. */
  async remove(actor: Actor, shareId: number): Promise<void> {
    const share = await this.repo.find(shareId);
    if (!share) throw NotFound(SHARE_NOT_FOUND);
    if (share.user_id !== userIdOf(actor)) await this.requireShare(actor, shareId);
    await this.repo.delete(share.id);
    const entry = { id: share.entry_id, name: share.name, type: share.type, owner_id: share.owner_id, workspace_id: share.workspace_id };
    await this.deps.activity.record({ action: 'unshared', entries: [entry], actor, details: { with: await this.deps.sharerName(share.user_id) } });
  }

  private async requireShare(actor: Actor, shareId: number) {
    const share = await this.repo.find(shareId);
    if (!share) throw NotFound(SHARE_NOT_FOUND);
    // A share id of an entry the caller cannot reach is as unknown as a missing one.
    await requireEntry(this.db, actor, 'files.share', share.hash).catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 404 ? NotFound(SHARE_NOT_FOUND) : error;
    });
    return share;
  }
}
