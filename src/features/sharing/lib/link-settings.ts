import type { components } from '../../../api/schema';

/**
 * The link settings form as the user edits it, and the body the server takes.
 * Pure, so the rules (what is sent, what a blank means) are tested without a
 * browser: a password field left empty keeps the current password, the
 * switches decide whether expiry and a limit apply at all.
 */
export interface LinkForm {
  allowDownload: boolean;
  fileDrop: boolean;
  /** Receipts (issue 35): tell me of the first download and of every file dropped. */
  notifyOwner: boolean;
  usePassword: boolean;
  /** A new password; empty keeps the one the link has. */
  password: string;
  useExpiry: boolean;
  /** `YYYY-MM-DDTHH:mm` in the user's time zone (an `<input type="datetime-local">`). */
  expiresAt: string;
  useLimit: boolean;
  maxDownloads: string;
}

export interface LinkSettingsBody {
  allowDownload?: boolean;
  fileDrop?: boolean;
  notifyOwner?: boolean;
  password?: string | null;
  expiresAt?: string | null;
  maxDownloads?: number | null;
}

type LinkShape = Pick<components['schemas']['ShareLink'], 'allow_download' | 'file_drop' | 'has_password' | 'expires_at' | 'max_downloads'> &
  Partial<Pick<components['schemas']['ShareLink'], 'notify_owner'>>;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local value in this browser's time zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export function formFromLink(link: LinkShape | null, now = Date.now()): LinkForm {
  return {
    allowDownload: link?.allow_download ?? true,
    fileDrop: link?.file_drop ?? false,
    notifyOwner: link?.notify_owner ?? false,
    usePassword: link?.has_password ?? false,
    password: '',
    useExpiry: Boolean(link?.expires_at),
    expiresAt: toLocalInput(link?.expires_at ?? new Date(now + WEEK_MS).toISOString()),
    useLimit: link?.max_downloads !== null && link?.max_downloads !== undefined,
    maxDownloads: String(link?.max_downloads ?? 10),
  };
}

export type FormProblem = { field: 'password' | 'expiresAt' | 'maxDownloads'; message: string };

/** The body to send, or the first problem the user must fix (messages are line keys). */
export function bodyFromForm(form: LinkForm, link: LinkShape | null, now = Date.now()): LinkSettingsBody | FormProblem {
  const body: LinkSettingsBody = { allowDownload: form.allowDownload, fileDrop: form.fileDrop };
  // Sent only when asked for or changed: a link without receipts keeps the body it always had.
  if (form.notifyOwner || link?.notify_owner) body.notifyOwner = form.notifyOwner;
  if (form.usePassword) {
    if (form.password) {
      if (form.password.length < 4) return { field: 'password', message: 'The password must be at least 4 characters.' };
      body.password = form.password;
    } else if (!link?.has_password) {
      return { field: 'password', message: 'Enter a password for the link.' };
    }
  } else if (link?.has_password || !link) {
    body.password = null;
  }
  if (form.useExpiry) {
    const at = new Date(form.expiresAt);
    if (Number.isNaN(at.getTime()) || at.getTime() <= now) return { field: 'expiresAt', message: 'The expiry must be in the future.' };
    body.expiresAt = at.toISOString();
  } else {
    body.expiresAt = null;
  }
  if (form.useLimit) {
    const limit = Number(form.maxDownloads);
    if (!Number.isInteger(limit) || limit < 1) return { field: 'maxDownloads', message: 'The download limit must be a whole number of at least 1.' };
    body.maxDownloads = limit;
  } else {
    body.maxDownloads = null;
  }
  return body;
}

export const isProblem = (value: LinkSettingsBody | FormProblem): value is FormProblem => 'field' in value;
