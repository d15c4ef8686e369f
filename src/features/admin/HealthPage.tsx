import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TranslateFn } from '../../i18n/use-trans';
import { useTrans } from '../../i18n/use-trans';
import { useAdminHealth } from './api';

function uptime(t: TranslateFn, seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return t(':days d :hours h :minutes min', { days, hours, minutes });
}

function Card({ label, value, detail, bad = false }: { label: string; value: string; detail?: string; bad?: boolean }) {
  return (
    <div className={`min-w-0 rounded border p-3 ${bad ? 'border-danger bg-danger/10' : 'border-divider'}`}>
      <p className="text-xs text-fg-muted">{label}</p>
      <p className={`text-lg font-semibold ${bad ? 'text-danger' : ''}`}>{value}</p>
      {detail && <p className="truncate text-xs text-fg-muted">{detail}</p>}
    </div>
  );
}

/**
 * What an admin needs at a glance (issue 33 §5): failures of the last hour
 * with a chart by minute, the slowest routes, jobs and deliveries, whether
 * the database and storage answer, versions and uptime. The figures are this
 * server process's, since it started.
 */
export function HealthPage() {
  const { t } = useTrans();
  const { data, isError } = useAdminHealth();
  if (isError) return <p role="alert">{t('The health report could not be loaded.')}</p>;
  if (!data) return null;
  const errors = data.errors;
  const failedJobs = data.jobs.runs?.reduce((sum, r) => sum + r.failed, 0) ?? null;
  const reach = (status: 'ok' | 'error') => (status === 'ok' ? t('Reachable') : t('Unreachable'));
  return (
    <section className="min-w-0">
      <div className="mb-4 flex flex-wrap items-baseline gap-x-3">
        <h1 className="mr-auto text-xl font-semibold">{t('Health')}</h1>
        <span className="text-sm text-fg-muted">{t('Up :uptime', { uptime: uptime(t, data.uptime_seconds) })}</span>
      </div>
      {!data.metrics && (
        <p role="status" className="mb-4 rounded bg-fg/5 p-2 text-sm">
          {t('Metrics are off (METRICS_ENABLED=false): errors, routes and job runs are not counted.')}
        </p>
      )}
      <div className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <Card
          label={t('Errors in the last hour')}
          value={errors ? String(errors.last_hour.request + errors.last_hour.job) : '—'}
          detail={errors ? t(':requests requests, :jobs jobs', { requests: errors.last_hour.request, jobs: errors.last_hour.job }) : undefined}
          bad={!!errors && errors.last_hour.request + errors.last_hour.job > 0}
        />
        <Card label={t('Jobs waiting')} value={String(data.jobs.waiting)} />
        <Card label={t('Failed jobs')} value={failedJobs === null ? '—' : String(failedJobs)} bad={!!failedJobs} />
        <Card
          label={t('Database')}
          value={reach(data.database.status)}
          detail={`${data.database.dialect}, ${data.database.ms} ms`}
          bad={data.database.status !== 'ok'}
        />
        <Card
          label={t('Storage')}
          value={reach(data.storage.status)}
          detail={`${data.storage.driver === 's3' ? 'S3' : t('Local disk')}, ${data.storage.ms} ms`}
          bad={data.storage.status !== 'ok'}
        />
        <Card label={t('Version')} value={data.versions.app} />
      </div>

      {errors && (
        <>
          <h2 className="mb-2 font-semibold">{t('Errors per minute, last hour')}</h2>
          <div className="mb-6 h-48 w-full min-w-0">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={errors.per_minute}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="minute" tickFormatter={(m: string) => m.slice(11, 16)} fontSize={12} interval="preserveStartEnd" minTickGap={16} />
                <YAxis allowDecimals={false} fontSize={12} width={28} />
                <Tooltip labelFormatter={(m) => String(m).slice(11, 16)} />
                <Legend />
                <Bar dataKey="request" stackId="errors" name={t('Requests')} fill="#dc2626" />
                <Bar dataKey="job" stackId="errors" name={t('Jobs')} fill="#f59e0b" />
              </BarChart>
            </ResponsiveContainer>
          </div>
        </>
      )}

      <div className="grid gap-6 md:grid-cols-2">
        {data.slowest_routes && (
          <div className="min-w-0">
            <h2 className="mb-2 font-semibold">{t('Slowest routes')}</h2>
            {data.slowest_routes.length === 0 ? (
              <p className="text-sm text-fg-muted">{t('No requests yet.')}</p>
            ) : (
              <ol className="text-sm">
                {data.slowest_routes.map((r) => (
                  <li key={`${r.method} ${r.route}`} className="flex items-baseline gap-2 border-b border-divider py-1">
                    <span className="min-w-0 flex-1 font-mono text-xs break-all">
                      {r.method} {r.route}
                    </span>
                    <span className="shrink-0 tabular-nums">{t(':ms ms (:count)', { ms: r.average_ms, count: r.count })}</span>
                  </li>
                ))}
              </ol>
            )}
          </div>
        )}
        {data.jobs.runs && (
          <div className="min-w-0">
            <h2 className="mb-2 font-semibold">{t('Background jobs')}</h2>
            {data.jobs.runs.length === 0 ? (
              <p className="text-sm text-fg-muted">{t('No job has run yet.')}</p>
            ) : (
              <table className="w-full text-sm">
                <thead>
                  <tr className="text-left text-xs text-fg-muted">
                    <th className="py-1 font-normal">{t('Job')}</th>
                    <th className="py-1 text-right font-normal">{t('Done')}</th>
                    <th className="py-1 text-right font-normal">{t('Retried')}</th>
                    <th className="py-1 text-right font-normal">{t('Failed')}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.jobs.runs.map((r) => (
                    <tr key={r.job} className="border-t border-divider">
                      <td className="py-1 break-all">{r.job}</td>
                      <td className="py-1 text-right tabular-nums">{r.ok}</td>
                      <td className="py-1 text-right tabular-nums">{r.retry}</td>
                      <td className={`py-1 text-right tabular-nums ${r.failed ? 'text-danger' : ''}`}>{r.failed}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        )}
        {data.deliveries && (
          <div className="min-w-0">
            <h2 className="mb-2 font-semibold">{t('Deliveries')}</h2>
            <ul className="text-sm">
              {data.deliveries.map((d) => (
                <li key={d.channel} className="flex justify-between gap-2 border-b border-divider py-1">
                  <span>{d.channel === 'mail' ? t('Mail') : d.channel === 'push' ? t('Push notifications') : d.channel}</span>
                  <span className={d.failed ? 'text-danger' : ''}>{t(':sent sent, :failed failed', { sent: d.sent, failed: d.failed })}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="min-w-0">
          <h2 className="mb-2 font-semibold">{t('Versions')}</h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-fg-muted">{t('App')}</dt>
            <dd className="break-all">{data.versions.app}</dd>
            <dt className="text-fg-muted">{t('Node.js')}</dt>
            <dd className="break-all">{data.versions.node}</dd>
            <dt className="text-fg-muted">{t('Database')}</dt>
            <dd className="break-all">{data.versions.database ?? '—'}</dd>
            <dt className="text-fg-muted">{t('Started')}</dt>
            <dd className="break-all">{new Date(data.started_at).toLocaleString()}</dd>
            <dt className="text-fg-muted">{t('Error reporting')}</dt>
            <dd>{data.error_reporting ? t('On') : t('Off')}</dd>
            <dt className="text-fg-muted">{t('Tracing')}</dt>
            <dd>{data.tracing ? t('On') : t('Off')}</dd>
          </dl>
        </div>
      </div>
    </section>
  );
}
