import type { Finding } from '../../lib/findings.js';
import type { TusFolder, TusUploadOnDisk } from './tus-folder.js';

export interface ReconcileDeps {
  quota: {
    list(): Promise<{ key: string; kind: string; created_at: string }[]>;
    release(key: string): Promise<void>;
    unclaim(key: string): Promise<void>;
  };
  folder: Pick<TusFolder, 'list' | 'remove' | 'fileOf'>;
  /** The drive's side of a finish: did it commit, and can its adopted bytes go back (see DriveFiles' diskPrefix)? */
  storage: {
    committedUnder(prefix: string): Promise<boolean>;
    moveBack(prefix: string, localFile: string): Promise<boolean>;
  };
}

export interface ReconcileWindow {
  /** Uploads and tus reservations last touched after this may still be in the making. */
  before: Date;
  /** Plain uploads, copies and finishes that began after this may still be running. */
  staleBefore: Date;
  /**
   * At start-up: uploads that received no byte are dropped too. Their client
   * has nothing to lose; when it asks, it gets 404 and starts a new upload.
   */
  atStart: boolean;
}

/**
 * Upload reservations reconciled with the uploads that still exist: a
 * reservation counts against its payer's space, so one without an upload
 * that can still finish is released, and a tus upload without its
 * reservation (unreachable: its uploader is known by it) is removed.
 */
export class UploadReconciler {
  constructor(private readonly deps: ReconcileDeps) {}

  async findings(window: ReconcileWindow): Promise<Finding[]> {
    const reservations = await this.deps.quota.list();
    const uploads = new Map((await this.deps.folder.list()).map((u) => [u.id, u]));
    const findings: Finding[] = [];
    for (const reservation of reservations) {
      const created = new Date(reservation.created_at);
      const upload = uploads.get(reservation.key);
      // A direct upload to S3 is settled by its own record's expiry (S3DirectUploads.expireAbandoned).
      if (reservation.kind === 's3') continue;
      if (reservation.kind === 'finishing') {
        if (created <= window.staleBefore) findings.push(this.unfinishedFinish(reservation.key));
      } else if (reservation.kind !== 'tus') {
        if (created <= window.staleBefore) {
          findings.push({
            check: 'reservation-without-upload',
            subject: `reservation ${reservation.key}`,
            detail: `a ${reservation.kind} that can no longer finish`,
            fix: () => this.deps.quota.release(reservation.key),
          });
        }
      } else if (!isWhole(upload)) {
        if (created <= window.before && (!upload || upload.modifiedAt <= window.before)) {
          findings.push({
            check: 'reservation-without-upload',
            subject: `reservation ${reservation.key}`,
            detail: upload ? 'its tus upload is half gone (bytes or metadata missing)' : 'its tus upload is gone',
            fix: () => this.drop(reservation.key),
          });
        }
      } else if (window.atStart && upload!.bytes === 0) {
        findings.push({
          check: 'empty-upload',
          subject: `upload ${reservation.key}`,
          detail: 'a tus upload that received no byte',
          fix: () => this.drop(reservation.key),
        });
      }
    }
    const reserved = new Set(reservations.map((r) => r.key));
    for (const upload of uploads.values()) {
      if (reserved.has(upload.id) || upload.modifiedAt > window.before) continue;
      findings.push({
        check: 'upload-without-reservation',
        subject: `upload ${upload.id}`,
        detail: `a tus upload (${upload.bytes ?? 0} bytes) nobody can reach any more`,
        fix: () => this.deps.folder.remove(upload.id),
      });
    }
    return findings;
  }

  private async drop(key: string): Promise<void> {
    await this.deps.folder.remove(key);
    await this.deps.quota.release(key);
  }

  /**
   * A finish (tus/entries) that did not answer: the upload goes back to
   * finishable if its bytes can be found (still in the tus folder, or
   * adopted into the drive under the upload's id without a commit); if the
   * entry did commit, only the bookkeeping is left to drop.
   */
  private unfinishedFinish(key: string): Finding {
    return {
      check: 'unfinished-finish',
      subject: `upload ${key}`,
      detail: 'a finish that did not complete',
      fix: async () => {
        const upload = (await this.deps.folder.list()).find((u) => u.id === key);
        if (upload?.bytes != null) return this.deps.quota.unclaim(key);
        if (await this.deps.storage.committedUnder(key)) return this.drop(key);
        if (upload?.hasInfo && (await this.deps.storage.moveBack(key, this.deps.folder.fileOf(key)))) return this.deps.quota.unclaim(key);
        await this.drop(key);
      },
    };
  }
}

const isWhole = (upload: TusUploadOnDisk | undefined): boolean => upload !== undefined && upload.bytes !== null && upload.hasInfo;
