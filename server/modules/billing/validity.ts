/** Stripe statuses in which a subscription gives its plan (past_due: Stripe is still retrying the payment). */
export const GIVING_STATUSES = ['active', 'trialing', 'past_due'] as const;
const GIVING = new Set<string>(GIVING_STATUSES);

/**
 * Spec §6: a user is subscribed when any subscription is valid. Valid means
 * Stripe still bills it (active, trialing, past due) and it has not ended:
 * a subscription cancelled at period end stays valid until `ends_at` (the
 * grace period). incomplete, unpaid and canceled ones give nothing.
 */
export function isValid(row: { gateway_status: string; ends_at: string | null }, now = new Date()): boolean {
  if (!GIVING.has(row.gateway_status)) return false;
  return row.ends_at === null || new Date(row.ends_at).getTime() > now.getTime();
}

/** Cancelled but not over yet: it can be resumed. */
export function onGracePeriod(row: { gateway_status: string; ends_at: string | null }, now = new Date()): boolean {
  return row.ends_at !== null && isValid(row, now);
}
