/**
 * Server-side wording in the caller's language. Messages are English
 * templates (`'The :attribute field is required.'`) that double as keys into
 * the localization lines, like the client's; a line may hold two forms,
 * `singular|plural`, chosen by `:count`.
 */
export type Lines = Record<string, string>;
export type MessageValues = Record<string, string | number>;

export function translate(lines: Lines | null, template: string, values: MessageValues = {}): string {
  const line = lines?.[template] ?? template;
  const forms = line.split('|');
  const text = forms.length === 2 && 'count' in values ? (Number(values.count) === 1 ? forms[0]! : forms[1]!) : line;
  // Only the names given are replaced, so a colon in ordinary text ("http://…") is left alone.
  return text.replace(/:([a-zA-Z_]+)/g, (match, name: string) => (name in values ? String(values[name]) : match));
}
