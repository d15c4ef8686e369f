import type { FileEntryRow } from '../../db/types.js';
import { Forbidden, Gone, NotFound, ValidationError } from '../../lib/errors.js';
import type { Limit } from '../../lib/rate-limiter.js';
import { sha256, signValue, verifySignedValue } from '../../lib/tokens.js';
import { userActor, type LinkActor } from '../access/actor.js';
import { loadGrants } from '../access/grants.repository.js';
import { can } from '../access/policy.js';
import type { ResolvedScope } from '../access/scope.js';
import { requireEntry } from '../access/require.js';
import type { Download } from '../drive/files.js';
import type { InlinePreview } from '../drive/kinds.js';
import { presentCrumb, type PresentedEntry } from '../drive/presenter.js';
import type { Executor } from '../drive/repository.js';
import type { ListQuery } from '../drive/schemas.js';
import type { Permission } from '../permissions/policy.js';
import { addFetchGrant, readFetchGrants, type FetchGrants } from './fetch-grants.js';
import { presentLinkEntry } from './present.js';
import type { LinkWithEntry, ShareLinksRepository } from './repository.js';
import type { LinkEntryOut, VisitorLinkOut } from './schemas.js';
import { LINK_NOT_FOUND } from './service.js';
import type { ActivityEntry, ActivityRecorder } from '../activity/recorder.js';

/** The linked entry as an activity record names it. */
const linkedEntry = (link: LinkWithEntry): ActivityEntry => ({
  id: link.entry_id,
  name: link.entry_name,
  type: link.entry_type,
  owner_id: link.entry_owner_id,
  workspace_id: link.entry_workspace_id,
});

export const LINK_USED_UP = 'This link has reached its download limit.';
export const LINK_LOCKED = 'This link is protected by a password.';
export const WRONG_LINK_PASSWORD = 'The password is incorrect.';
/** How long a right password keeps a browser in: a working day. */
export const UNLOCK_TTL_MS = 12 * 60 * 60 * 1000;

const MINUTE = 60_000;

/**
 * Guesses at a link's password: a few per visitor's network; and once the
 * link as a whole has taken 100 in an hour, a slow-down rather than a lock:
 * each network then gets 3 an hour, so guessing from many networks cannot
 * shut the rightful visitor out, and the guesses stay few per network.
 */
export const linkPasswordLimits = (linkId: number, address: string): Limit[] => [
  { key: `link-password:${linkId}|${address}`, max: 5, windowMs: 15 * MINUTE },
  {
    key: `link-password:${linkId}`,
    max: 100,
    windowMs: 60 * MINUTE,
    beyond: { key: `link-password-slow:${linkId}|${address}`, max: 3, windowMs: 60 * MINUTE },
  },
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
  download(actor: LinkActor, hashes: string[], onError: (error: unknown) => void): Promise<Download>;
  openable(actor: LinkActor, hash: string): Promise<{ entry: FileEntryRow; key: string }>;
  /** The drive's own preview rule: inline, for the kinds that have one (404 for the others). */
  preview(actor: LinkActor, hash: string): Promise<{ entry: FileEntryRow; key: string; mode: InlinePreview }>;
  /** Where visits, downloads and drops are recorded as the entries' activity (with the anonymised address). */
  activity: ActivityRecorder;
  /** The owner's receipt (issue 35): a link's first download, and every file dropped; sent only when the link asks for it. */
  receipt(notice: LinkReceipt): Promise<void>;
}

export interface LinkReceipt {
  kind: 'downloaded' | 'dropped';
  ownerId: number;
  /** The linked entry's hash and name. */
  entryHash: string;
  entryName: string;
  /** The downloaded or dropped file's name. */
  fileName: string;
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
  /** The `link_fetch` cookie: the files this browser already fetched through the link (fetch-grants.ts). */
  fetchCookie: string | undefined;
  /** The request asks for a file from its first byte (no Range, or one from 0): a new fetch in the access log. */
  fromStart: boolean;
  /** The visitor's address, already anonymised for the log. */
  address: string | null;
}

const isExpired = (link: LinkWithEntry) => link.expires_at !== null && Date.parse(link.expires_at) <= Date.now();
const isUsedUp = (link: LinkWithEntry) => link.max_downloads !== null && Number(link.download_count) >= link.max_downloads;
/** Binds an unlock to the password it was made with: a new password ends every older unlock. */
const unlockValue = (link: LinkWithEntry) => `${link.id}|${sha256(link.password_hash ?? '').slice(0, 16)}`;

/** A fetch of a file's bytes, and the grant cookie to hand the visitor when this fetch was counted. */
export type Fetched<T> = T & { grant: { value: string; maxAgeSeconds: number } | null };

/**
 * Sharing by link, the visitor's side. Each call opens the link afresh
 * (unknown, deleted, trashed, expired and revoked links are one 404; a
 * used-up link is 410), needs the password first when one is set, and then
 * acts through the drive as a LinkActor, so the link grant source decides
 * what it reaches.
 *
 * A download is any response carrying a file's bytes (a download, a zip, a
 * preview; ranged or not; thumbnails aside). Each counts once per visitor
 * fetch: a fetch by a browser that holds no grant on that file takes one from
 * the allowance (atomically, before a byte is sent) and gets a grant, under
 * which its later fetches of the file are free (fetch-grants.ts).
 */
export class ShareLinkVisitors {
  constructor(
    private readonly db: Executor,
    private readonly repo: ShareLinksRepository,
    private readonly deps: VisitorDeps,
  ) {}

  /** `pastLimit`: a used-up link still opens (a fetch decides, by the visitor's grants). */
  async open(visit: Visit, { pastLimit = false } = {}): Promise<OpenedLink> {
    const link = await this.repo.byToken(visit.token);
    if (!link || link.entry_deleted_at !== null || isExpired(link)) throw NotFound(LINK_NOT_FOUND);
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
    // Whether the link itself still grants anything (its maker suspended: no) is the link grant source's answer.
    if (!(await loadGrants(this.db, actor, [entryRow])).get(link.entry_id)?.size) throw NotFound(LINK_NOT_FOUND);
    if (isUsedUp(link) && !pastLimit) throw Gone(LINK_USED_UP);
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
      await this.recordVisit('link-opened', opened.link, null, visit.address);
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
    await this.recordVisit('link-opened', link, null, visit.address);
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

  /** One file, or a zip of a selection (always counted: it has no ranges to resume), if the link allows downloads. */
  async download(visit: Visit, hashes: string[], onError: (error: unknown) => void) {
    const { link, actor, grants } = await this.openForFetch(visit, hashes.length === 1 ? hashes[0]! : null);
    const result = await this.deps.download(actor, hashes, onError);
    try {
      const file = result.kind === 'file' ? result.entry : null;
      const grant = await this.count(visit, link, grants, file, { kind: 'download', name: result.kind === 'file' ? result.entry.name : result.name });
      return { ...result, grant };
    } catch (error) {
      if (result.kind === 'zip') result.stream.destroy();
      throw error;
    }
  }

  /**
   * A file shown inline, for the kinds that have a preview; other kinds have
   * none (404), so a preview is never a download in disguise. It carries the
   * bytes, so it counts as a download does.
   */
  async preview(visit: Visit, hash: string): Promise<Fetched<{ entry: FileEntryRow; key: string; mode: InlinePreview }>> {
    const { link, actor, grants } = await this.openForFetch(visit, hash);
    const { entry, key, mode } = await this.deps.preview(actor, hash);
    return { entry, key, mode, grant: await this.count(visit, link, grants, entry, { kind: 'preview', name: entry.name }) };
  }

  async thumbnailOf(visit: Visit, hash: string) {
    const { actor } = await this.openUnlocked(visit);
    return (await this.deps.openable(actor, hash)).entry;
  }

  /** Opens a link for a fetch of `hash`: past its limit only for a visitor who already holds a grant on that file. */
  private async openForFetch(visit: Visit, hash: string | null): Promise<OpenedLink & { grants: FetchGrants }> {
    const opened = await this.open(visit, { pastLimit: true });
    const grants = readFetchGrants(await this.deps.appKey(), opened.link.id, visit.fetchCookie);
    if (isUsedUp(opened.link) && !(hash !== null && grants.has(hash))) throw Gone(LINK_USED_UP);
    if (!opened.unlocked) throw Forbidden(LINK_LOCKED);
    return { ...opened, grants };
  }

  /**
   * Counts a fetch unless this visitor holds a grant on the file: one
   * conditional UPDATE, so of requests racing for the last download exactly
   * one wins (410 for the others). Answers the new grant (none for a zip).
   * The access log takes every counted fetch, and a granted one when it starts
   * from the first byte (the owner sees the download after a preview; not
   * every range of a video).
   */
  private async count(
    visit: Visit,
    link: LinkWithEntry,
    grants: FetchGrants,
    file: FileEntryRow | null,
    event: { kind: 'download' | 'preview'; name: string },
  ) {
    if (file && grants.has(file.hash)) {
      if (visit.fromStart) {
        await this.repo.addEvent(link.id, event.kind, event.name, visit.address);
        await this.recordVisit('link-downloaded', link, file, visit.address);
      }
      return null;
    }
    if (!(await this.repo.takeDownload(link.id))) throw Gone(LINK_USED_UP);
    await this.repo.addEvent(link.id, event.kind, event.name, visit.address);
    await this.recordVisit('link-downloaded', link, file, visit.address);
    // The link's first counted fetch: the owner's receipt, when the link asks for one.
    if (Number(link.download_count) === 0 && link.notify_owner) await this.sendReceipt('downloaded', link, event.name);
    return file ? addFetchGrant(await this.deps.appKey(), link.id, grants, file.hash) : null;
  }

  /** A file drop: the file goes into the linked folder (never elsewhere, never over another), within the owner's quota and the upload rules. */
  async upload(visit: Visit, store: StoreDropped): Promise<void> {
    const { link, actor } = await this.openUnlocked(visit);
    if (!actor.fileDrop) throw Forbidden();
    const stored = await store(actor, { parentId: link.entry_hash });
    await this.repo.addEvent(link.id, 'upload', stored.name, visit.address);
    await this.deps.activity.record({
      action: 'dropped',
      entries: [linkedEntry(link)],
      actor,
      address: visit.address,
      details: { name: stored.name, linkId: link.id },
    });
    if (link.notify_owner) await this.sendReceipt('dropped', link, stored.name);
  }

  /** A visitor's open or fetch, on the linked entry (or the file fetched inside a linked folder). */
  private async recordVisit(action: 'link-opened' | 'link-downloaded', link: LinkWithEntry, file: FileEntryRow | null, address: string | null) {
    const entry = file ?? linkedEntry(link);
    await this.deps.activity.record({ action, entries: [entry], actor: 'visitor', address, details: { linkId: link.id } });
  }

  /** A receipt never fails the visitor's call: the download or the drop has happened. */
  private async sendReceipt(kind: LinkReceipt['kind'], link: LinkWithEntry, fileName: string) {
    const notice = { kind, ownerId: link.created_by, entryHash: link.entry_hash, entryName: link.entry_name, fileName };
    await this.deps.receipt(notice).catch(() => undefined);
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
