import type { Readable } from 'node:stream';
import type { FileEntryRow } from '../../db/types.js';
import { Forbidden, Gone, NotFound, ValidationError } from '../../lib/errors.js';
import type { Limit } from '../../lib/rate-limiter.js';
import { sha256, signValue, verifySignedValue } from '../../lib/tokens.js';
import { userActor, type LinkActor } from '../access/actor.js';
import { loadGrants } from '../access/grants.repository.js';
import { can } from '../access/policy.js';
import type { ResolvedScope } from '../access/scope.js';
import { requireEntry } from '../access/require.js';
import { presentCrumb, type PresentedEntry } from '../drive/presenter.js';
import type { Executor } from '../drive/repository.js';
import type { ListQuery } from '../drive/schemas.js';
import type { Permission } from '../permissions/policy.js';
import { presentLinkEntry } from './present.js';
import type { LinkWithEntry, ShareLinksRepository } from './repository.js';
import type { LinkEntryOut, VisitorLinkOut } from './schemas.js';
import { LINK_NOT_FOUND } from './service.js';

export const LINK_USED_UP = 'This link has reached its download limit.';
export const LINK_LOCKED = 'This link is protected by a password.';
export const WRONG_LINK_PASSWORD = 'The password is incorrect.';
/** How long a right password keeps a browser in: a working day. */
export const UNLOCK_TTL_MS = 12 * 60 * 60 * 1000;

const MINUTE = 60_000;

/** Guesses at a link's password: a few per visitor, and a cap per link across all visitors. */
export const linkPasswordLimits = (linkId: number, address: string): Limit[] => [
  { key: `link-password:${linkId}|${address}`, max: 5, windowMs: 15 * MINUTE },
  { key: `link-password:${linkId}`, max: 100, windowMs: 60 * MINUTE },
];

type Listing = {
  pagination: {
    data: PresentedEntry[];
    current_page: number | null;
    per_page: number;
    total: number | null;
    last_page: number | null;
    next_cursor: string | null;
  };
  folder: { hash: string; name: string; permissions: string[] } | null;
};

/** What a link visitor may ask of the drive, as narrow functions (the composition root wires them). */
export interface VisitorDeps {
  appKey(): Promise<string>;
  permissionsOf(userId: number): Promise<Permission[]>;
  ownerName(userId: number): Promise<string | null>;
  checkPassword<T>(limits: Limit[], compare: () => Promise<T>): Promise<T>;
  verifyPassword(hash: string, password: string): Promise<boolean>;
  scope(actor: LinkActor): Promise<ResolvedScope>;
  list(actor: LinkActor, scope: ResolvedScope, query: ListQuery): Promise<Listing>;
  present(actor: LinkActor, ids: number[]): Promise<PresentedEntry[]>;
  download(
    actor: LinkActor,
    hashes: string[],
    onError: (error: unknown) => void,
  ): Promise<{ kind: 'file'; entry: FileEntryRow; key: string } | { kind: 'zip'; name: string; stream: Readable }>;
  openable(actor: LinkActor, hash: string): Promise<{ entry: FileEntryRow; key: string }>;
}

/** Stores the uploaded file (the HTTP edge reads it) into `place`, answering what it was stored as. */
export type StoreDropped = (actor: LinkActor, place: { parentId: string }) => Promise<{ name: string }>;

/** A link call: the link, the actor it makes, and whether its password (if any) was given. */
export interface OpenedLink {
  link: LinkWithEntry;
  actor: LinkActor;
  unlocked: boolean;
}

export interface Visit {
  token: string;
  /** The `link_access` cookie this browser holds for the link, if any. */
  unlockCookie: string | undefined;
  /** The visitor's address, already anonymised for the log. */
  address: string | null;
}

const isExpired = (link: LinkWithEntry) => link.expires_at !== null && Date.parse(link.expires_at) <= Date.now();
const isUsedUp = (link: LinkWithEntry) => link.max_downloads !== null && Number(link.download_count) >= link.max_downloads;
/** Binds an unlock to the password it was made with: a new password ends every older unlock. */
const unlockValue = (link: LinkWithEntry) => `${link.id}|${sha256(link.password_hash ?? '').slice(0, 16)}`;

/**
 * Sharing by link, the visitor's side. Each call opens the link afresh
 * (unknown, deleted, trashed and expired links are one 404; a used-up link is
 * 410), needs the password first when one is set, and then acts through the
 * drive as a LinkActor, so the link grant source decides what it reaches.
 */
export class ShareLinkVisitors {
  constructor(
    private readonly db: Executor,
    private readonly repo: ShareLinksRepository,
    private readonly deps: VisitorDeps,
  ) {}

  async open(visit: Visit): Promise<OpenedLink> {
    const link = await this.repo.byToken(visit.token);
    if (!link || link.entry_deleted_at !== null || isExpired(link)) throw NotFound(LINK_NOT_FOUND);
    if (isUsedUp(link)) throw Gone(LINK_USED_UP);
    const permissions = await this.deps.permissionsOf(link.created_by);
    // A link speaks for its maker: once they may no longer share the entry (left the workspace, lost
    // the role), their links stop working, as if they had been deleted.
    const maker = userActor(link.created_by, permissions);
    const entryRow = { id: link.entry_id, owner_id: link.entry_owner_id, workspace_id: link.entry_workspace_id, path: link.entry_path };
    if (!can(maker, 'files.share', (await loadGrants(this.db, maker, [entryRow])).get(link.entry_id))) throw NotFound(LINK_NOT_FOUND);
    const unlocked = link.password_hash === null || verifySignedValue(await this.deps.appKey(), visit.unlockCookie) === unlockValue(link);
    const actor: LinkActor = {
      kind: 'link',
      linkId: link.id,
      linkOwnerId: link.created_by,
      entry: { id: link.entry_id, ownerId: link.entry_owner_id, workspaceId: link.entry_workspace_id },
      allowDownload: Boolean(link.allow_download),
      fileDrop: Boolean(link.file_drop),
      permissions,
    };
    return { link, actor, unlocked };
  }

  /** Past the password, or 403: a locked link shows no names or sizes. */
  async openUnlocked(visit: Visit): Promise<OpenedLink> {
    const opened = await this.open(visit);
    if (!opened.unlocked) throw Forbidden(LINK_LOCKED);
    return opened;
  }

  /** The link page's first call: what the link is, and once unlocked what it shows (counted as a visit). */
  async info(visit: Visit): Promise<VisitorLinkOut> {
    const opened = await this.open(visit);
    if (opened.unlocked) {
      await this.repo.countView(opened.link.id);
      await this.repo.addEvent(opened.link.id, 'open', opened.link.entry_name, visit.address);
    }
    return this.describe(opened);
  }

  /** Checks a password (throttled per link and visitor, counted before it is compared) and answers the unlock cookie's value. */
  async unlock(visit: Visit, password: string): Promise<{ cookie: string | null; link: VisitorLinkOut }> {
    const opened = await this.open(visit);
    const { link } = opened;
    if (link.password_hash === null) return { cookie: null, link: await this.describe({ ...opened, unlocked: true }) };
    await this.deps.checkPassword(linkPasswordLimits(link.id, visit.address ?? 'unknown'), async () => {
      if (await this.deps.verifyPassword(link.password_hash!, password)) return;
      await this.repo.addEvent(link.id, 'password-failed', null, visit.address);
      throw ValidationError.field('password', WRONG_LINK_PASSWORD);
    });
    await this.repo.countView(link.id);
    await this.repo.addEvent(link.id, 'open', link.entry_name, visit.address);
    const cookie = signValue(await this.deps.appKey(), unlockValue(link), UNLOCK_TTL_MS);
    return { cookie, link: await this.describe({ ...opened, unlocked: true }) };
  }

  /** A folder inside the link (the linked folder itself by default). */
  async list(visit: Visit, query: Omit<ListQuery, 'perPage'> & { perPage: number }) {
    const { link, actor } = await this.openUnlocked(visit);
    const folder = await requireEntry(this.db, actor, 'files.view', query.folderId ?? link.entry_hash);
    if (folder.type !== 'folder') throw ValidationError.field('folderId', 'The selected destination is not a folder.');
    const listing = await this.deps.list(actor, await this.deps.scope(actor), { ...query, folderId: folder.hash });
    const fromLink = folder.path.split('/').map(Number);
    return {
      pagination: { ...listing.pagination, data: listing.pagination.data.map((entry) => presentLinkEntry(entry, visit.token)) },
      folder: listing.folder ?? { hash: folder.hash, name: folder.name, permissions: [] },
      path: (await this.repo.crumbs(fromLink.slice(fromLink.indexOf(link.entry_id)))).map(presentCrumb),
    };
  }

  /**
   * One file, or a zip of a selection, if the link allows downloads. With a
   * limit, each download takes one from the allowance atomically before a byte
   * is sent; `counts` is false for the later ranges of one download.
   */
  async download(visit: Visit, hashes: string[], counts: boolean, onError: (error: unknown) => void) {
    const { link, actor } = await this.openUnlocked(visit);
    const result = await this.deps.download(actor, hashes, onError);
    if (counts && !(await this.repo.takeDownload(link.id))) {
      if (result.kind === 'zip') result.stream.destroy();
      throw Gone(LINK_USED_UP);
    }
    if (counts) await this.repo.addEvent(link.id, 'download', result.kind === 'file' ? result.entry.name : result.name, visit.address);
    return result;
  }

  async preview(visit: Visit, hash: string, logged: boolean) {
    const { link, actor } = await this.openUnlocked(visit);
    const opened = await this.deps.openable(actor, hash);
    if (logged) await this.repo.addEvent(link.id, 'preview', opened.entry.name, visit.address);
    return opened;
  }

  async thumbnailOf(visit: Visit, hash: string) {
    const { actor } = await this.openUnlocked(visit);
    return (await this.deps.openable(actor, hash)).entry;
  }

  /** A file drop: the file goes into the linked folder (never elsewhere, never over another), within the owner's quota and the upload rules. */
  async upload(visit: Visit, store: StoreDropped): Promise<void> {
    const { link, actor } = await this.openUnlocked(visit);
    if (!actor.fileDrop) throw Forbidden();
    const stored = await store(actor, { parentId: link.entry_hash });
    await this.repo.addEvent(link.id, 'upload', stored.name, visit.address);
  }

  private async describe({ link, actor, unlocked }: OpenedLink): Promise<VisitorLinkOut> {
    let entry: LinkEntryOut | null = null;
    if (unlocked) {
      const [presented] = await this.deps.present(actor, [link.entry_id]);
      if (!presented) throw NotFound(LINK_NOT_FOUND);
      entry = presentLinkEntry(presented, link.token);
      // A drop folder's size would tell what others sent.
      if (actor.fileDrop) entry.file_size = 0;
    }
    return {
      token: link.token,
      requires_password: !unlocked,
      allow_download: Boolean(link.allow_download),
      file_drop: Boolean(link.file_drop),
      expires_at: link.expires_at,
      downloads_left: link.max_downloads === null ? null : Math.max(0, link.max_downloads - Number(link.download_count)),
      owner_name: unlocked ? await this.deps.ownerName(link.created_by) : null,
      entry,
    };
  }
}
