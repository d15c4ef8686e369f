import type { SaveItem } from './types';

/**
 * Saves go out one at a time, oldest first, so a document's versions reach
 * the server in the order they were made (each names the version before it).
 */
export function pickNextSave(waiting: SaveItem[], userId: string | null): SaveItem[] {
  if (!userId || waiting.some((item) => item.status === 'inProgress')) return [];
  const mine = waiting.filter((item) => item.userId === userId && item.status === 'pending').sort((a, b) => a.createdAt - b.createdAt);
  return mine.slice(0, 1);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'Report.docx' → 'Report (conflict 2026-11-25 14.05).docx', in the device's local time. */
export function conflictCopyName(name: string, at: Date): string {
  const stamp = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}.${pad(at.getMinutes())}`;
  const dot = name.toLowerCase().endsWith('.docx') ? name.length - 5 : name.length;
  return `${name.slice(0, dot)} (conflict ${stamp}).docx`;
}
