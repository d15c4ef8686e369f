import type { MessageValues } from '../../../i18n/format-message';
import type { ShareLink } from '../api/links';

/** What a link allows, as short line keys for the row under its address. */
export function linkSummary(
  link: Pick<ShareLink, 'file_drop' | 'allow_download' | 'has_password' | 'expires_at' | 'max_downloads' | 'download_count' | 'view_count'>,
) {
  const parts: { key: string; values?: MessageValues }[] = [];
  if (link.file_drop) parts.push({ key: 'File drop' });
  else parts.push({ key: link.allow_download ? 'View and download' : 'View only' });
  if (link.has_password) parts.push({ key: 'Password' });
  if (link.expires_at) parts.push({ key: 'Expires :date', values: { date: new Date(link.expires_at).toLocaleString() } });
  if (link.max_downloads !== null) parts.push({ key: ':used of :max downloads', values: { used: link.download_count, max: link.max_downloads } });
  else if (!link.file_drop) parts.push({ key: ':count downloads', values: { count: link.download_count } });
  parts.push({ key: ':count visits', values: { count: link.view_count } });
  return parts;
}
