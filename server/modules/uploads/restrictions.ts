import { formatBytes } from '../../lib/format.js';
import type { MessageValues } from '../../lib/i18n.js';
import type { SettingValue } from '../settings/defaults.js';

/** Upload restrictions from settings (spec §5 "Upload restrictions"). */
export interface UploadRules {
  maxSize: number | null;
  allowed: string[];
  blocked: string[];
}

export const TYPE_NOT_ALLOWED = 'This file type is not allowed';
export const TOO_LARGE = ':file exceeds maximum allowed size of :size';
/** A broken rule in the spec's words, as a template and its values (translated on the way out). */
export interface Problem {
  template: string;
  values: MessageValues;
}
export const tooLarge = (name: string, maxSize: number): Problem => ({ template: TOO_LARGE, values: { file: name, size: formatBytes(maxSize) } });
const typeNotAllowed: Problem = { template: TYPE_NOT_ALLOWED, values: {} };

const list = (value: SettingValue | undefined): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim().toLowerCase()) : [];

export function rulesFrom(settings: Record<string, SettingValue>): UploadRules {
  const max = settings['uploads.max_size'];
  return {
    maxSize: typeof max === 'number' && max > 0 ? max : null,
    allowed: list(settings['uploads.allowed_extensions']),
    blocked: list(settings['uploads.blocked_extensions']),
  };
}

/** A list entry with a slash is a MIME pattern (`image/*`, `application/pdf`); otherwise an extension. */
function matches(pattern: string, file: { extension: string | null; mime: string | null }): boolean {
  if (pattern.includes('/')) {
    const mime = file.mime?.toLowerCase();
    if (!mime) return false;
    return pattern.endsWith('/*') ? mime.startsWith(pattern.slice(0, -1)) : mime === pattern;
  }
  return file.extension !== null && file.extension.toLowerCase() === pattern.replace(/^\./, '');
}

export const extensionOfName = (name: string): string | null => {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
};

/** The first rule a file breaks, in the spec's words, or null. */
export function restrictionProblem(rules: UploadRules, file: { name: string; size: number | null; mime: string | null }): Problem | null {
  if (rules.maxSize !== null && file.size !== null && file.size > rules.maxSize) return tooLarge(file.name, rules.maxSize);
  const subject = { extension: extensionOfName(file.name), mime: file.mime };
  if (rules.blocked.some((p) => matches(p, subject))) return typeNotAllowed;
  if (rules.allowed.length && !rules.allowed.some((p) => matches(p, subject))) return typeNotAllowed;
  return null;
}
