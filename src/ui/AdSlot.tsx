// Spec §2 advertisement slots (file preview, drive, landing top): empty,
// configurable containers. Ad code is placed into them by the host page (by
// slot name); the app itself never loads third-party scripts.
export type AdSlotName = 'file-preview' | 'drive' | 'landing-top';

export function AdSlot({ slot, className = '' }: { slot: AdSlotName; className?: string }) {
  return <div data-ad-slot={slot} aria-hidden="true" className={`empty:hidden ${className}`} />;
}
