import { formatBytes } from '../../i18n/format-size';
import type { UploadItem } from '../../offline/queues/uploads/types';

// The panel's headline (spec §3 Upload item, issue 6 "a summary").
export interface UploadSummary {
  /** An English key with :count, translated with its plural forms. */
  key: string;
  /** Both forms, for languages whose server lines lack this key. */
  fallback: string;
  count: number;
  active: number;
  /** Whole percent of the bytes of everything still queued. */
  percentage: number;
  /** Other placeholders of the key (:size). */
  values?: Record<string, string>;
}

export function summarize(items: UploadItem[], online = true): UploadSummary {
  const active = items.filter((i) => i.status === 'pending' || i.status === 'inProgress');
  const failed = items.filter((i) => i.status === 'failed').length;
  const completed = items.filter((i) => i.status === 'completed').length;
  const total = active.reduce((sum, i) => sum + i.size, 0);
  const sent = active.reduce((sum, i) => sum + i.bytesUploaded, 0);
  const percentage = total > 0 ? Math.floor((sent / total) * 100) : 0;
  // Offline nothing is uploading: say what waits, and that it resumes by itself (also after a restart).
  if (active.length && !online) {
    return {
      key: 'Waiting for network: :count files (:size) will upload by themselves',
      fallback: 'Waiting for network: :count file (:size) will upload by itself|Waiting for network: :count files (:size) will upload by themselves',
      count: active.length,
      active: active.length,
      percentage,
      values: { size: formatBytes(total - sent) },
    };
  }
  if (active.length) {
    return { key: 'Uploading :count files', fallback: 'Uploading :count file|Uploading :count files', count: active.length, active: active.length, percentage };
  }
  if (failed) {
    return { key: ':count uploads failed', fallback: ':count upload failed|:count uploads failed', count: failed, active: 0, percentage };
  }
  return { key: ':count uploads complete', fallback: ':count upload complete|:count uploads complete', count: completed, active: 0, percentage };
}
