import { toOverviewView } from './overview.mapper';
import type { OverviewSqlRow } from './overview-query.sql';

function row(series: OverviewSqlRow['series'], name: string | null, requests: number): OverviewSqlRow {
  return {
    series,
    name,
    at: '2026-06-01T10:00:00.000Z',
    requests: String(requests),
    errors: '1',
    spend_micros: '9007199254740993',
    // Latencies 10, 20, 30 and 40 ms: buckets [10, 15), [20, 30) and [30, 50) twice.
    latency_histogram: '0,0,0,0,0,0,1,0,1,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0',
  };
}

describe('toOverviewView', () => {
  it('splits the series, orders them by requests with (other) last, and keeps money exact', () => {
    const window = { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-06-01T12:00:00Z') };
    const view = toOverviewView(
      [row('total', null, 9), row('model', '(other)', 5), row('model', 'a', 1), row('model', 'b', 3)],
      window,
      'hour',
    );
    expect(view.total).toEqual([
      {
        at: '2026-06-01T10:00:00.000Z',
        requests: 9,
        errors: 1,
        spendMicros: '9007199254740993',
        latencyP50Ms: 30,
        latencyP95Ms: 43.5,
      },
    ]);
    expect(view.byModel.map((series) => series.name)).toEqual(['b', 'a', '(other)']);
    expect(view.byChannel).toEqual([]);
    expect(view).toMatchObject({ from: '2026-06-01T00:00:00.000Z', bucket: 'hour' });
  });
});
