// Spec §9: sizes in B..YB, steps of 1024; storage percentage 0 when unlimited.
export const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** 0 → "0 B", 1536 → "1.5 KB", 1024⁸ → "1 YB" (larger stays in YB). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 ? Math.round(value) : Number(value.toFixed(1));
  return `${rounded} ${SIZE_UNITS[unit]}`;
}

/** Whole percent of `available` in use; 0 when there is no limit (null) or no room at all. */
export function storagePercentage(used: number, available: number | null): number {
  if (available === null || available <= 0) return 0;
  return Math.min(100, Math.round((used / available) * 100));
}
