import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** One family as the Prometheus text parser answers it. */
export interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}

export interface Scrape {
  text: string;
  families: Family[];
}

/** Parses a scrape with a Prometheus text-format parser (a malformed exposition throws). */
export const parseScrape = (text: string): Scrape => ({ text, families: parsePrometheusTextFormat(text) as Family[] });

const matches = (labels: Record<string, string> | undefined, wanted: Record<string, string>) => Object.entries(wanted).every(([k, v]) => labels?.[k] === v);

/** The sum of a counter's or gauge's series with these labels; 0 when absent. */
export function valueOf(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  const family = scrape.families.find((f) => f.name === name);
  return (family?.metrics ?? []).filter((m) => matches(m.labels, labels)).reduce((sum, m) => sum + Number(m.value ?? 0), 0);
}

/**
 * A histogram's `_count` summed over the series with these labels. The parser
 * folds a labelled histogram's series into one (it keeps buckets by `le`
 * only), so the counts are read from the exposition lines it has validated.
 */
export function histogramCount(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of scrape.text.split('\n')) {
    const match = new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (!match) continue;
    const found = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (matches(found, labels)) total += Number(match[2]);
  }
  return total;
}
