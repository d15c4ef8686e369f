import type { SettingKey, SettingValue } from '../modules/settings/defaults.js';
import type { ObservabilityConfig } from './config.js';
import { splitList } from './config.js';

/** What the observability parts read from the settings service (a narrow dependency). */
export interface SettingsReader {
  get(key: SettingKey): Promise<SettingValue>;
  /** Saves made in this process (see SettingsService.onSaved). */
  onSaved?(listener: (keys: string[]) => void): () => void;
}

export interface EffectiveObservability {
  sentryDsn: string | null;
  sampleRate: number;
  otlpEndpoint: string | null;
  tracesSampleRate: number;
  metricsToken: string | null;
  metricsAllow: string[];
}

const text = (value: SettingValue): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
const rate = (value: SettingValue): number | null => (typeof value === 'number' && value >= 0 && value <= 1 ? value : null);

/**
 * The admin's settings over the environment: a set setting wins, an empty one
 * falls back to the variable (the Stripe and mail settings' rule).
 */
export async function effectiveObservability(settings: SettingsReader, config: ObservabilityConfig): Promise<EffectiveObservability> {
  const [dsn, sample, otlp, traces, token, allow] = await Promise.all([
    settings.get('observability.sentry_dsn'),
    settings.get('observability.sample_rate'),
    settings.get('observability.otlp_endpoint'),
    settings.get('observability.traces_sample_rate'),
    settings.get('observability.metrics_token'),
    settings.get('observability.metrics_allow'),
  ]);
  const allowed = Array.isArray(allow) ? allow.filter((v): v is string => typeof v === 'string') : [];
  return {
    sentryDsn: text(dsn) ?? config.sentryDsn ?? null,
    sampleRate: rate(sample) ?? config.sampleRate,
    otlpEndpoint: text(otlp) ?? config.otlpEndpoint ?? null,
    tracesSampleRate: rate(traces) ?? config.tracesSampleRate,
    metricsToken: text(token) ?? config.metricsToken ?? null,
    metricsAllow: allowed.length ? allowed : splitList(config.metricsAllow.join(',')),
  };
}
