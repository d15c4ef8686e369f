/** Theme colours are stored as "r g b" triplets; colour pickers speak #rrggbb. */
export function tripletToHex(triplet: string): string {
  const parts = triplet.trim().split(/\s+/).map(Number);
  if (parts.length !== 3 || parts.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return '#000000';
  return `#${parts.map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}

export function hexToTriplet(hex: string): string {
  const digits = hex.replace('#', '');
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16) || 0).join(' ');
}

/** "--be-primary-light" → "Primary light", for labels. */
export function variableLabel(name: string): string {
  const words = name.replace(/^--be-/, '').replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
