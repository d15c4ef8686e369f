/**
 * How old leftovers must be before housekeeping or the doctor may call them
 * abandoned while the server runs. Every write moves a file's modification
 * time, so a temporary file, a stray object or an upload without its
 * reservation that nothing touched for this long has no request behind it.
 * (At start-up, before listening, nothing of this process is in flight and
 * everything counts.)
 */
export const IN_FLIGHT_GRACE_MS = 10 * 60 * 1000;

/** Plain uploads, copies and finishes take seconds to minutes: a reservation of theirs this old has lost its request. */
export const STALE_RESERVATION_MS = 60 * 60 * 1000;

/**
 * The moment before which leftovers are abandoned: the grace period ago, or
 * the start of the oldest upload or copy still in flight if that is earlier
 * (a long copy writes its objects minutes before the rows that point to them).
 */
export function leftoverCutoff(now: Date, oldestInFlight: string | null, graceMs = IN_FLIGHT_GRACE_MS): Date {
  const grace = new Date(now.getTime() - graceMs);
  if (!oldestInFlight) return grace;
  const oldest = new Date(oldestInFlight);
  return oldest < grace ? oldest : grace;
}
