import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatTick } from '../format/time.util';
import type { ChartRow } from './series.util';

const PALETTE = [
  '#2563eb',
  '#dc2626',
  '#059669',
  '#d97706',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#4b5563',
  '#65a30d',
];

export interface LineSpec {
  key: string;
  label?: string;
}

/**
 * One chart over time. The figure carries a caption for screen readers; the same numbers are in the
 * tables of the Logs and Usage views for anyone who cannot read a chart.
 */
export function TimeChart({
  title,
  rows,
  lines,
  spansDays,
  unit,
}: {
  title: string;
  rows: readonly ChartRow[];
  lines: readonly LineSpec[];
  spansDays: boolean;
  unit?: string;
}) {
  return (
    <figure className="chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      {rows.length === 0 ? (
        <p className="muted chart__empty">No requests in this window.</p>
      ) : (
        <ResponsiveContainer width="100%" height={220}>
          <LineChart data={[...rows]} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis
              dataKey="at"
              tickFormatter={(value: string) => formatTick(value, spansDays)}
              minTickGap={24}
              fontSize={12}
            />
            <YAxis fontSize={12} width={48} unit={unit} allowDecimals />
            <Tooltip labelFormatter={(value) => formatTick(String(value), true)} />
            <Legend />
            {lines.map((line, index) => (
              <Line
                key={line.key}
                type="monotone"
                dataKey={line.key}
                name={line.label ?? line.key}
                stroke={PALETTE[index % PALETTE.length]}
                dot={rows.length < 3}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      )}
    </figure>
  );
}
