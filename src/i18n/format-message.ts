// Server lines are keyed by their English text. A line may hold two forms,
// `singular|plural`, and `:name` placeholders (spec §7/§9).
export type MessageValues = Record<string, unknown>;

export function pickPluralForm(text: string, count: unknown): string {
  if (!text.includes('|')) return text;
  const [singular = '', plural] = text.split('|');
  if (typeof count !== 'number') return singular;
  return count === 1 ? singular : (plural ?? singular);
}

export function replacePlaceholders(text: string, values: MessageValues = {}): string {
  return text.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (match, name: string) => {
    const value = values[name];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : match;
  });
}

export function formatMessage(text: string, values?: MessageValues): string {
  return replacePlaceholders(pickPluralForm(text, values?.count), values);
}
