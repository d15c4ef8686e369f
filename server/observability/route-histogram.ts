import { Histogram, type HistogramConfiguration, type LabelValues, type MetricObjectWithValues, type MetricValueWithName } from 'prom-client';

type Label = 'method' | 'route' | 'status';
type Labels = Record<Label, string>;

interface Series {
  labels: Labels;
  /** Observations per bucket, not cumulative; above the last bound only in `count`. */
  counts: number[];
  sum: number;
  count: number;
}

/** One string per label set: route patterns and methods hold no newline. */
const seriesKey = (method: string, route: string, status: string) => `${method}\n${route}\n${status}`;

interface ExportValue {
  labels: Record<string, string | number>;
  sharedLabels: Labels;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * Request durations by method, route and status: prom-client's Histogram as
 * the registry and the Health page see it (the same exposition, the same
 * `get()`), with a cheaper observation on every request's path. prom-client's
 * own observe checks and hashes the labels object and allocates a closure
 * each time (~3-5 µs, most of what metrics cost a listing in issue 33's bench);
 * here a series is found by three map look-ups of strings that are the same
 * objects every time (the route's pattern, the method, the status), whose hashes
 * V8 keeps: a key joined from them was a new string to hash on every request.
 */
export class RouteHistogram extends Histogram<Label> {
  /** In the order first observed (the exposition's order); `index` finds one by route, method and status. */
  private series = new Map<string, Series>();
  private index = new Map<string, Map<string, Map<string, Series>>>();
  private readonly bounds: readonly number[];
  private readonly about: { name: string; help: string; type: 'histogram'; aggregator: string };

  constructor(config: HistogramConfiguration<Label> & { buckets: number[] }) {
    super(config);
    this.bounds = [...config.buckets];
    this.about = { name: config.name, help: config.help, type: 'histogram', aggregator: config.aggregator ?? 'sum' };
    // prom-client puts `observe` on the instance; the labelled form keeps its signature (tests, other callers).
    this.observe = ((labels: LabelValues<Label> | number, value?: number) => {
      if (typeof labels === 'number' || value === undefined) throw new TypeError('RouteHistogram: observe needs method, route and status');
      this.observeRoute(String(labels.method), String(labels.route), String(labels.status), value);
    }) as Histogram<Label>['observe'];
  }

  observeRoute(method: string, route: string, status: string, seconds: number): void {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    const series = this.index.get(route)?.get(method)?.get(status) ?? this.emptySeries(method, route, status);
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i += 1;
    if (i < bounds.length) series.counts[i]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  // Also called by prom-client's constructor, before this class's fields exist.
  override reset(): void {
    this.series = new Map();
    this.index = new Map();
  }

  override zero(labels: LabelValues<Label>): void {
    this.emptySeries(String(labels.method), String(labels.route), String(labels.status));
  }

  /** A series at zero for these labels, in place of any it had. */
  private emptySeries(method: string, route: string, status: string): Series {
    const series = { labels: { method, route, status }, counts: this.bounds.map(() => 0), sum: 0, count: 0 };
    this.series.set(seriesKey(method, route, status), series);
    let methods = this.index.get(route);
    if (!methods) this.index.set(route, (methods = new Map()));
    let statuses = methods.get(method);
    if (!statuses) methods.set(method, (statuses = new Map()));
    statuses.set(status, series);
    return series;
  }

  /** What prom-client's registry writes (buckets cumulative, then +Inf, sum and count per series). */
  getForPromString(): Promise<MetricObjectWithValues<MetricValueWithName<string>>> {
    const { name } = this.about;
    const bucket = `${name}_bucket`;
    const values: ExportValue[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { le: bound }, sharedLabels: labels, value: cumulative, metricName: bucket, exemplar: null });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucket, exemplar: null });
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum`, exemplar: undefined });
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count`, exemplar: undefined });
    }
    return Promise.resolve({ ...this.about, values } as unknown as MetricObjectWithValues<MetricValueWithName<string>>);
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<Label>>> {
    const data = await this.getForPromString();
    const values = (data.values as unknown as ExportValue[]).map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } }));
    return { ...data, values } as unknown as MetricObjectWithValues<MetricValueWithName<Label>>;
  }
}
