import { SHARED_PARAM } from '../../offline/queues/uploads/shared-files';
import { safeRedirectTarget } from '../../app/landing';

// Apart from shared-files.ts: the sign-in page reads the count, and the claim's upload queue and IndexedDB are not for it.

/** How many shared files wait for a sign-in, read from the sign-in page's `redirect` (/drive?shared=3). */
export function sharedCountOf(redirect: string | null): number {
  const target = safeRedirectTarget(redirect);
  if (!target) return 0;
  const count = Number(new URL(target, 'http://app.invalid').searchParams.get(SHARED_PARAM));
  return Number.isInteger(count) && count > 0 ? count : 0;
}
