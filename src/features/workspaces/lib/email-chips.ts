// The invite section's email chips (spec §5 "Invite emails"): at most 320
// characters, the standard pattern, domain labels of at most 63 characters.
// Pasted text becomes one chip per email-like token; a chip already present
// is skipped, and an empty one is dropped.

export const EMAIL_MAX_LENGTH = 320;
export const DOMAIN_LABEL_MAX_LENGTH = 63;

export interface EmailChip {
  /** The chip's identity: the address as typed, lower-cased for comparison. */
  id: string;
  name: string;
  invalid: boolean;
}

const EMAIL_PATTERN = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)+$/;
const EMAIL_TOKEN = /[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9.-]+/g;

export function isValidEmail(value: string): boolean {
  if (!value || value.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(value)) return false;
  const domain = value.slice(value.lastIndexOf('@') + 1);
  return domain.split('.').every((label) => label.length <= DOMAIN_LABEL_MAX_LENGTH);
}

export function toChip(value: string): EmailChip | null {
  const name = value.trim().replace(/[.,;]+$/, '');
  if (!name) return null;
  return { id: name.toLowerCase(), name, invalid: !isValidEmail(name) };
}

/** Every email-like token of pasted text; when there is none, the text itself (so a bad value still shows as a bad chip). */
export function chipsFromText(text: string): EmailChip[] {
  const tokens = text.match(EMAIL_TOKEN) ?? [];
  const values = tokens.length ? tokens : [text];
  return values.map(toChip).filter((chip): chip is EmailChip => chip !== null);
}

/** Adds chips in order, skipping ids already present. */
export function addChips(current: readonly EmailChip[], added: readonly EmailChip[]): EmailChip[] {
  const seen = new Set(current.map((chip) => chip.id));
  const next = [...current];
  for (const chip of added) {
    if (seen.has(chip.id)) continue;
    seen.add(chip.id);
    next.push(chip);
  }
  return next;
}

/**
 * The chips plus the address still being typed (not yet committed with Enter,
 * comma or blur): what a click on Invite or Share sends, so typing an address
 * and clicking the button works the first time.
 */
export function withPending(chips: readonly EmailChip[], text: string): EmailChip[] {
  const pending = toChip(text);
  return pending ? addChips(chips, [pending]) : [...chips];
}

/** The invite button is disabled while any chip is invalid, none is given, or a request is pending. */
export function canSendInvites(chips: readonly EmailChip[], pending: boolean): boolean {
  return !pending && chips.length > 0 && chips.every((chip) => !chip.invalid);
}
