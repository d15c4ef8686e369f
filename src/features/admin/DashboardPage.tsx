import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTrans } from '../../i18n/use-trans';
import { useDashboard } from './api';
import { formatBytes } from './Pager';

const warningLines = {
  mail_not_configured: 'Mail is not configured: messages are written to files on the server.',
  default_admin_password: 'An admin account still uses a default password. Change it.',
  disk_almost_full: 'The disk is almost full.',
} as const;

/** Counts, space, uploads and sign-ups over 30 days, the largest users, the version and warnings. */
export function DashboardPage() {
  const { t } = useTrans();
  const { data } = useDashboard();
  if (!data) return null;
  const cards = [
    { label: 'Users', value: String(data.users) },
    { label: 'Files', value: String(data.files) },
    { label: 'Workspaces', value: String(data.workspaces) },
    { label: 'Space used', value: formatBytes(data.space.used) },
    {
      label: 'Of which versions',
      value: `${formatBytes(data.space.versions)} (${data.space.used > 0 ? Math.round((data.space.versions / data.space.used) * 100) : 0}%)`,
    },
    { label: 'Free on disk', value: data.space.disk_free === null ? '—' : formatBytes(data.space.disk_free) },
  ];
  return (
    <section>
      <div className="mb-4 flex items-center">
        <h1 className="mr-auto text-xl font-semibold">{t('Dashboard')}</h1>
        <span className="text-sm text-fg-muted">V {data.version}</span>
      </div>
      {data.warnings.length > 0 && (
        <ul className="mb-4 flex flex-col gap-1">
          {data.warnings.map((w) => (
            <li key={w} role="alert" className="rounded bg-danger/10 p-2 text-sm text-danger">
              {t(warningLines[w])}
            </li>
          ))}
        </ul>
      )}
      <div className="mb-6 grid grid-cols-2 gap-3 md:grid-cols-5">
        {cards.map((c) => (
          <div key={c.label} className="rounded border border-divider p-3">
            <p className="text-xs text-fg-muted">{t(c.label)}</p>
            <p className="text-lg font-semibold">{c.value}</p>
          </div>
        ))}
      </div>
      <h2 className="mb-2 font-semibold">{t('Uploads and sign-ups, last 30 days')}</h2>
      <div className="mb-6 h-64 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data.per_day}>
            <CartesianGrid strokeDasharray="3 3" />
            {/* Thirty dates do not fit a phone's width: recharts drops ticks that would overlap. */}
            <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={12} interval="preserveStartEnd" minTickGap={12} />
            <YAxis allowDecimals={false} fontSize={12} width={32} />
            <Tooltip />
            <Legend />
            <Bar dataKey="uploads" name={t('Uploads')} fill="rgb(var(--be-primary, 59 130 246))" />
            <Bar dataKey="signups" name={t('Sign-ups')} fill="#f59e0b" />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <h2 className="mb-2 font-semibold">{t('Largest users')}</h2>
      <ol className="text-sm">
        {data.largest_users.map((u) => (
          <li key={u.id} className="flex justify-between gap-2 border-b border-divider py-1">
            <span className="min-w-0 truncate">{u.email}</span>
            <span>{formatBytes(u.bytes)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
