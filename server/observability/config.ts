import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * What the environment says about observability. Every part is off unless
 * configured, except metrics collection (cheap, and the admin's Health page
 * reads it); the admin settings `observability.*` win over these when set.
 */
export interface ObservabilityConfig {
  /** Collect request, job and delivery figures (METRICS_ENABLED, default true). /metrics still needs a token or an allowed address. */
  metricsEnabled: boolean;
  /** METRICS_TOKEN: a scraper sends `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** METRICS_ALLOW: addresses or CIDR ranges that may read /metrics without a token. */
  metricsAllow: string[];
  /** Sentry-compatible error reporting: off when empty. */
  sentryDsn: string | undefined;
  /** Share of errors reported, 0..1 (spec: 1). */
  sampleRate: number;
  environment: string;
  release: string;
  /** OTLP/HTTP traces endpoint (…/v1/traces); tracing is off when unset. */
  otlpEndpoint: string | undefined;
  /** Share of traces kept, 0..1 (spec: 1). */
  tracesSampleRate: number;
  /** OTLP/HTTP's encoding: protobuf (OpenTelemetry's default, half the bytes and cheaper to write) or JSON. */
  otlpProtocol: OtlpProtocol;
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';

const booleanString = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((value) => value === 'true' || value === '1' || value === 'yes');
const rate = z.coerce.number().min(0).max(1);

export const observabilityEnv = z.object({
  METRICS_ENABLED: booleanString.default(true),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  METRICS_ALLOW: z.string().optional(),
  SENTRY_DSN: z.url({ protocol: /^https?$/ }).optional(),
  SENTRY_SAMPLE_RATE: rate.default(1),
  SENTRY_ENVIRONMENT: z.string().min(1).max(64).optional(),
  SENTRY_RELEASE: z.string().min(1).max(200).optional(),
  /** The OpenTelemetry variables' names, so an operator's usual setup works. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_TRACES_SAMPLER_ARG: rate.default(1),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
});

export type ObservabilityEnv = z.output<typeof observabilityEnv>;

export function observabilityConfig(e: ObservabilityEnv, nodeEnv: string): ObservabilityConfig {
  const base = e.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  return {
    metricsEnabled: e.METRICS_ENABLED,
    metricsToken: e.METRICS_TOKEN,
    metricsAllow: splitList(e.METRICS_ALLOW),
    sentryDsn: e.SENTRY_DSN,
    sampleRate: e.SENTRY_SAMPLE_RATE,
    environment: e.SENTRY_ENVIRONMENT ?? nodeEnv,
    release: e.SENTRY_RELEASE ?? `drive@${appVersion()}`,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base}/v1/traces` : undefined),
    tracesSampleRate: e.OTEL_TRACES_SAMPLER_ARG,
    otlpProtocol: e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
  };
}

export const splitList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

let version: string | undefined;
/** The app's version from package.json (the release errors are reported under). */
export function appVersion(): string {
  if (version) return version;
  for (const candidate of ['../../package.json', '../../../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (parsed.name === 'drive' && parsed.version) return (version = parsed.version);
    } catch {
      // Not at this depth (source vs dist/server).
    }
  }
  return (version = '0.0.0');
}
