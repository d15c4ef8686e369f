import { Readable } from 'node:stream';
import type { FileEntryRow } from '../../db/types.js';
import { ValidationError } from '../../lib/errors.js';
import type { Actor } from '../access/actor.js';
import type { ResolvedScope } from '../access/scope.js';
import type { DriveFacade } from '../drive/facade.js';
import { validName } from '../drive/names.js';
import { isConflict } from '../drive/versions.js';
import { openDocx, readSections, type DocumentPackage } from './docx-read.js';
import { writeDocx } from './docx-write.js';
import { damagedDocx, docxTooLarge, notADocx, SaveConflict } from './errors.js';
import { documentImageAddress, resolveImages } from './images.js';
import type { Section } from './model.js';
import { PACKAGE_LIMITS, PackageError } from './package.js';
import { XmlError } from './xml.js';

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const NEW_DOCUMENT_NAME = 'Untitled document.docx';

export interface DocumentsDeps {
  drive: Pick<DriveFacade, 'readWhole' | 'readVersionWhole' | 'replaceContent' | 'storeFile' | 'present'>;
  resolveScope(actor: Actor, workspaceId: number | null): Promise<ResolvedScope>;
}

const isDocx = (entry: FileEntryRow) => entry.extension?.toLowerCase() === 'docx' || entry.mime === DOCX_MIME;

/**
 * Documents (spec §4 Document editor, §7 file-entries/read and save): a
 * stored .docx read into the §3 sections model and written back as a new
 * version of the same entry. Who may read and save is the access policy's
 * (files.view, files.update); saves are conditional on the version the
 * client edited, so a stale save never overwrites.
 */
export class DocumentsService {
  constructor(private readonly deps: DocumentsDeps) {}

  private async open(actor: Actor, id: string, action: 'files.view' | 'files.update'): Promise<{ entry: FileEntryRow; pkg: DocumentPackage }> {
    const { entry, bytes } = await this.deps.drive.readWhole(actor, id, action, PACKAGE_LIMITS.fileBytes, docxTooLarge);
    return { entry, pkg: await this.unpack(entry, bytes) };
  }

  private async unpack(entry: FileEntryRow, bytes: Buffer): Promise<DocumentPackage> {
    if (!isDocx(entry)) throw notADocx();
    try {
      return await openDocx(bytes);
    } catch (error) {
      if (error instanceof PackageError && error.reason === 'too-large') throw docxTooLarge();
      if (error instanceof PackageError || error instanceof XmlError) throw damagedDocx();
      throw error;
    }
  }

  private sections(entry: FileEntryRow, pkg: DocumentPackage): Section[] {
    try {
      return readSections(pkg, (name) => documentImageAddress(entry.hash, name));
    } catch (error) {
      if (error instanceof PackageError || error instanceof XmlError) throw damagedDocx();
      throw error;
    }
  }

  private async present(actor: Actor, entry: FileEntryRow) {
    return (await this.deps.drive.present(actor, [entry.id]))[0]!;
  }

  async read(actor: Actor, id: string, versionId?: number | null) {
    if (versionId) return this.readVersion(actor, id, versionId);
    const { entry, pkg } = await this.open(actor, id, 'files.view');
    return { data: this.sections(entry, pkg), version: entry.sha256 ?? '', fileEntry: await this.present(actor, entry) };
  }

  /**
   * An earlier version of the document (issue 34), for the editor to show read-only: its sections,
   * and which version they are. `version` stays the file's current one: nothing is saved from here.
   */
  private async readVersion(actor: Actor, id: string, versionId: number) {
    const { entry, version, bytes } = await this.deps.drive.readVersionWhole(actor, id, versionId, PACKAGE_LIMITS.fileBytes, docxTooLarge);
    const pkg = await this.unpack(entry, bytes);
    return {
      data: this.sections(entry, pkg),
      version: entry.sha256 ?? '',
      fileEntry: await this.present(actor, entry),
      shownVersion: { id: version.id, created_at: version.created_at },
    };
  }

  /** The bytes of one image of the document's package, by the name read() gave it. */
  async image(actor: Actor, id: string, name: string): Promise<{ bytes: Buffer; mime: string }> {
    const { pkg } = await this.open(actor, id, 'files.view');
    const image = pkg.images.get(name);
    if (!image) throw ValidationError.field('name', 'This image is not part of the document.');
    return image;
  }

  private async write(actor: Actor, own: { hash: string; pkg: DocumentPackage }, content: Section[]): Promise<Buffer> {
    const images = await resolveImages(actor, this.deps.drive, own, content);
    const bytes = await writeDocx(content, (address) => images.get(address));
    if (bytes.length > PACKAGE_LIMITS.fileBytes) throw docxTooLarge();
    return bytes;
  }

  /** A new version of the same entry, only if `version` is still the stored one; else 409 with the current version. */
  async save(actor: Actor, id: string, version: string, content: Section[]) {
    const { entry, pkg } = await this.open(actor, id, 'files.update');
    // A file we cannot read is not ours to replace: the save is refused like the read, and the file stays as it is.
    this.sections(entry, pkg);
    const current = entry.sha256 ?? '';
    if (current !== normaliseVersion(version)) throw new SaveConflict(current);
    const bytes = await this.write(actor, { hash: entry.hash, pkg }, content);
    const saved = await this.deps.drive.replaceContent(actor, entry, current, bytes, DOCX_MIME);
    if (isConflict(saved)) throw new SaveConflict(saved.current.sha256 ?? '');
    return { version: saved.sha256 ?? '', fileEntry: await this.present(actor, saved) };
  }

  /**
   * A conflict's way out: the client's version as a new .docx beside the
   * original (or, where the caller may not add files there, in their own
   * drive's root), so neither side is lost.
   */
  async saveCopy(actor: Actor, workspaceId: number | null, id: string, name: string, content: Section[]) {
    const { entry, pkg } = await this.open(actor, id, 'files.view');
    const bytes = await this.write(actor, { hash: entry.hash, pkg }, content);
    const fileName = validName(name.toLowerCase().endsWith('.docx') ? name : `${name}.docx`);
    const parent = entry.parent_id === null ? null : await this.parentHash(actor, entry);
    const store = async (scope: ResolvedScope, parentId: string | null) =>
      this.deps.drive.storeFile(actor, scope, { parentId, segments: [] }, { name: fileName, stream: Readable.from([bytes]), size: bytes.length });
    let fileEntry;
    try {
      fileEntry = await store(await this.deps.resolveScope(actor, entry.workspace_id), parent);
    } catch {
      fileEntry = await store(await this.deps.resolveScope(actor, workspaceId), null);
    }
    return { fileEntry };
  }

  /** An empty document in a folder (the drive's "New document"). */
  async create(actor: Actor, workspaceId: number | null, parentId: string | null, name?: string | null) {
    const bytes = await writeDocx([{ kind: 'paragraph', runs: [] }], () => undefined);
    const given = name?.trim() || NEW_DOCUMENT_NAME;
    const fileName = validName(given.toLowerCase().endsWith('.docx') ? given : `${given}.docx`);
    const scope = await this.deps.resolveScope(actor, workspaceId);
    const fileEntry = await this.deps.drive.storeFile(
      actor,
      scope,
      { parentId, segments: [] },
      { name: fileName, stream: Readable.from([bytes]), size: bytes.length },
    );
    return { fileEntry };
  }

  private async parentHash(actor: Actor, entry: FileEntryRow): Promise<string | null> {
    const presented = await this.present(actor, entry);
    return presented.parent_id;
  }
}

/** An ETag ("abc", W/"abc") or the bare sha256. */
export const normaliseVersion = (version: string) => version.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
