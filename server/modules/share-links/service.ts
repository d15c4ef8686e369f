import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { HttpError, NotFound, ValidationError } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import { userIdOf, type Actor } from '../access/actor.js';
import { requireEntry } from '../access/require.js';
import type { ActivityRecorder } from '../activity/recorder.js';
import { presentLink } from './present.js';
import type { LinkValues, LinkWithEntry, ShareLinksRepository } from './repository.js';
import { EVENTS_PER_PAGE } from './repository.js';
import type { CreateLinkInput, ShareLinkOut, UpdateLinkInput } from './schemas.js';

export const LINK_NOT_FOUND = 'This link has expired or does not exist.';

/** 18 random bytes: 144 bits, 24 URL-safe characters. */
export const newLinkToken = () => randomToken(18);

export interface ShareLinksDeps {
  hashPassword(password: string): Promise<string>;
  /** The site's public address (read on use: an admin may change it). */
  appUrl: () => Promise<string>;
  activity: ActivityRecorder;
}

/**
 * Sharing by link, the owner's side: make, list, change and delete the links
 * of an entry and read their access log. Every call takes files.share on the
 * linked entry (the access policy); what a link then lets its holder do is the
 * link grant source's.
 */
export class ShareLinksService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repo: ShareLinksRepository,
    private readonly deps: ShareLinksDeps,
  ) {}

  async list(actor: Actor, hash: string): Promise<ShareLinkOut[]> {
    const entry = await requireEntry(this.db, actor, 'files.share', hash);
    const base = await this.deps.appUrl();
    return (await this.repo.forEntry(entry.id)).map((row) => presentLink(row, base));
  }

  async create(actor: Actor, hash: string, input: CreateLinkInput): Promise<ShareLinkOut> {
    const entry = await requireEntry(this.db, actor, 'files.share', hash);
    const values = await this.values(input, entry.type);
    const id = await this.repo.create({
      token: newLinkToken(),
      entry_id: entry.id,
      created_by: userIdOf(actor),
      allow_download: values.allow_download ?? 1,
      file_drop: values.file_drop ?? 0,
      notify_owner: values.notify_owner ?? 0,
      password_hash: values.password_hash ?? null,
      expires_at: values.expires_at ?? null,
      max_downloads: values.max_downloads ?? null,
    });
    await this.deps.activity.record({ action: 'link-created', entries: [entry], actor, details: { linkId: id } });
    return this.present((await this.repo.byId(id))!);
  }

  /** Changes only what is sent; a new password ends every visitor's unlock made with the old one. */
  async update(actor: Actor, linkId: number, input: UpdateLinkInput): Promise<ShareLinkOut> {
    const link = await this.requireLink(actor, linkId);
    await this.repo.update(link.id, await this.values(input, link.entry_type));
    return this.present((await this.repo.byId(link.id))!);
  }

  async delete(actor: Actor, linkId: number): Promise<void> {
    const link = await this.requireLink(actor, linkId);
    await this.repo.delete(link.id);
  }

  /** Revokes every link of the entry at once. */
  async deleteAll(actor: Actor, hash: string): Promise<number> {
    const entry = await requireEntry(this.db, actor, 'files.share', hash);
    return this.repo.deleteForEntry(entry.id);
  }

  async events(actor: Actor, linkId: number, page: number) {
    const link = await this.requireLink(actor, linkId);
    const { rows, total } = await this.repo.events(link.id, page);
    return {
      pagination: {
        data: rows.map((row) => ({ ...row, kind: row.kind as 'open' })),
        current_page: page,
        per_page: EVENTS_PER_PAGE,
        total,
        last_page: Math.max(1, Math.ceil(total / EVENTS_PER_PAGE)),
      },
    };
  }

  private async present(row: LinkWithEntry): Promise<ShareLinkOut> {
    return presentLink(row, await this.deps.appUrl());
  }

  private async values(input: UpdateLinkInput, entryType: string): Promise<Partial<LinkValues>> {
    if (input.fileDrop && entryType !== 'folder') throw ValidationError.field('fileDrop', 'Only folders can receive files.');
    if (input.expiresAt && Date.parse(input.expiresAt) <= Date.now()) throw ValidationError.field('expiresAt', 'The expiry must be in the future.');
    const values: Partial<LinkValues> = {};
    if (input.allowDownload !== undefined) values.allow_download = input.allowDownload ? 1 : 0;
    if (input.fileDrop !== undefined) values.file_drop = input.fileDrop ? 1 : 0;
    if (input.notifyOwner !== undefined) values.notify_owner = input.notifyOwner ? 1 : 0;
    if (input.expiresAt !== undefined) values.expires_at = input.expiresAt === null ? null : new Date(input.expiresAt).toISOString();
    if (input.maxDownloads !== undefined) values.max_downloads = input.maxDownloads;
    // Hashed before anything is written: a password that cannot be set leaves the link as it was, never open.
    if (input.password !== undefined) values.password_hash = input.password === null ? null : await this.deps.hashPassword(input.password);
    return values;
  }

  private async requireLink(actor: Actor, linkId: number): Promise<LinkWithEntry> {
    const link = await this.repo.byId(linkId);
    if (!link) throw NotFound(LINK_NOT_FOUND);
    // A link of an entry the caller cannot reach is as unknown as a missing one.
    await requireEntry(this.db, actor, 'files.share', link.entry_hash, { trash: 'any' }).catch((error: unknown) => {
      throw error instanceof HttpError && error.statusCode === 404 ? NotFound(LINK_NOT_FOUND) : error;
    });
    return link;
  }
}
