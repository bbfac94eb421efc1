import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { channelsApi, figuresApi, keysApi } from '../api/admin.api';
import { METRICS, METRIC_LABELS, seriesRows, totalRows, type Metric } from '../charts/series.util';
import { TimeChart } from '../charts/time-chart';
import { microsToUnits } from '../format/money.util';
import { ErrorBanner } from '../ui/error-banner';
import { SelectField } from '../ui/field';
import { PageHeader, Panel } from '../ui/page-header';

const WINDOWS = [
  { value: '1h', label: 'Last hour, by minute', bucket: 'minute', ms: 3_600_000 },
  { value: '6h', label: 'Last 6 hours, by minute', bucket: 'minute', ms: 6 * 3_600_000 },
  { value: '24h', label: 'Last 24 hours, by hour', bucket: 'hour', ms: 24 * 3_600_000 },
  { value: '7d', label: 'Last 7 days, by hour', bucket: 'hour', ms: 7 * 24 * 3_600_000 },
  { value: '30d', label: 'Last 30 days, by hour', bucket: 'hour', ms: 30 * 24 * 3_600_000 },
] as const;

const TOP_KEYS = 10;

export function OverviewPage() {
  const [windowValue, setWindowValue] = useState<string>('1h');
  const [metric, setMetric] = useState<Metric>('requests');
  const chosen = WINDOWS.find((entry) => entry.value === windowValue) ?? WINDOWS[0];

  const overview = useQuery({
    queryKey: ['overview', chosen.value],
    queryFn: () => figuresApi.overview({ window: chosen.value, bucket: chosen.bucket }),
    refetchInterval: 30_000,
  });
  const topKeys = useQuery({
    queryKey: ['usage', 'key', chosen.value],
    queryFn: () => figuresApi.usage({ groupBy: 'key', from: new Date(Date.now() - chosen.ms).toISOString() }),
  });
  const channels = useQuery({ queryKey: ['channels'], queryFn: channelsApi.list });
  const keys = useQuery({ queryKey: ['keys', ''], queryFn: () => keysApi.list() });

  const channelName = useMemo(() => {
    const names = new Map((channels.data ?? []).map((channel) => [channel.id, channel.name]));
    return (id: string) => names.get(id) ?? id;
  }, [channels.data]);
  const keyName = useMemo(() => {
    const names = new Map((keys.data ?? []).map((key) => [key.id, `${key.name} (${key.prefix}…)`]));
    return (id: string | undefined) => (id === undefined ? '—' : (names.get(id) ?? id));
  }, [keys.data]);

  const spansDays = chosen.ms > 24 * 3_600_000;
  const data = overview.data;
  const totals = data ? totalRows(data.total) : [];
  const byModel = data ? seriesRows(data.byModel, metric, (name) => name) : [];
  const byChannel = data ? seriesRows(data.byChannel, metric, channelName) : [];
  const ranked = [...(topKeys.data ?? [])]
    .sort((a, b) =>
      BigInt(b.costMicros) > BigInt(a.costMicros) ? 1 : BigInt(b.costMicros) < BigInt(a.costMicros) ? -1 : 0,
    )
    .slice(0, TOP_KEYS);
  const sum = (key: 'requests' | 'errors') =>
    (data?.total ?? []).reduce((total, point) => total + point[key], 0);
  const spend = (data?.total ?? []).reduce((total, point) => total + BigInt(point.spendMicros), 0n);

  return (
    <>
      <PageHeader
        title="Overview"
        intro="Traffic, errors, spend and latency over time, per model and per channel; the keys that spend most."
        actions={
          <a className="button" href={`/admin/usage?groupBy=day,model&format=csv`} download="usage.csv">
            Usage CSV (24 h)
          </a>
        }
      />
      <div className="toolbar">
        <SelectField
          label="Window"
          value={windowValue}
          onChange={setWindowValue}
          options={WINDOWS.map(({ value, label }) => ({ value, label }))}
        />
        <SelectField
          label="Per model and channel, plot"
          value={metric}
          onChange={(value) => setMetric(value as Metric)}
          options={METRICS.map((value) => ({ value, label: METRIC_LABELS[value] }))}
        />
      </div>
      <ErrorBanner error={overview.error} />
      {data && (
        <div className="stats" aria-label="Totals of the window">
          <div className="stat">
            <span className="stat__label">Requests</span>
            <span className="stat__value" data-testid="total-requests">
              {sum('requests')}
            </span>
          </div>
          <div className="stat">
            <span className="stat__label">Errors</span>
            <span className="stat__value">{sum('errors')}</span>
          </div>
          <div className="stat">
            <span className="stat__label">Spend (units)</span>
            <span className="stat__value">{microsToUnits(spend.toString())}</span>
          </div>
        </div>
      )}
      {overview.isPending && <p className="muted">Loading the figures…</p>}
      {data && (
        <div className="chart-grid">
          <TimeChart
            title="Requests and errors"
            rows={totals}
            spansDays={spansDays}
            lines={[
              { key: 'requests', label: 'Requests' },
              { key: 'errors', label: 'Errors' },
            ]}
          />
          <TimeChart
            title="Spend (units)"
            rows={totals}
            spansDays={spansDays}
            lines={[{ key: 'spend', label: 'Spend' }]}
          />
          <TimeChart
            title="Latency (ms)"
            rows={totals}
            spansDays={spansDays}
            lines={[
              { key: 'p50', label: 'p50' },
              { key: 'p95', label: 'p95' },
            ]}
          />
          <TimeChart
            title={`${METRIC_LABELS[metric]} per model`}
            rows={byModel}
            spansDays={spansDays}
            lines={data.byModel.map((series) => ({ key: series.name }))}
          />
          <TimeChart
            title={`${METRIC_LABELS[metric]} per channel`}
            rows={byChannel}
            spansDays={spansDays}
            lines={data.byChannel.map((series) => ({ key: channelName(series.name) }))}
          />
        </div>
      )}
      <Panel title="Top keys by spend" id="top-keys">
        <ErrorBanner error={topKeys.error} />
        {ranked.length === 0 && !topKeys.isPending ? (
          <p className="muted">No key spent anything in this window.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Keys by spend in the window</caption>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col" className="num">
                    Requests
                  </th>
                  <th scope="col" className="num">
                    Errors
                  </th>
                  <th scope="col" className="num">
                    Spend (units)
                  </th>
                </tr>
              </thead>
              <tbody>
                {ranked.map((row) => (
                  <tr key={row.group}>
                    <td>{keyName(row.keyId)}</td>
                    <td className="num">{row.requests}</td>
                    <td className="num">{row.errors}</td>
                    <td className="num">{microsToUnits(row.costMicros)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </>
  );
}
