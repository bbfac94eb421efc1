import type { OverviewPoint } from '../api/admin.types';
import { seriesRows, totalRows } from './series.util';

const point = (at: string, requests: number, spendMicros = '0'): OverviewPoint => ({
  at,
  requests,
  errors: 1,
  spendMicros,
  latencyP50Ms: 10,
  latencyP95Ms: 90,
});

describe('overview chart rows', () => {
  it('merges series into one row per bucket, oldest first, 0 where a series has no point', () => {
    const rows = seriesRows(
      [
        { name: 'model-a', points: [point('2026-01-01T02:00:00Z', 3), point('2026-01-01T01:00:00Z', 1)] },
        { name: 'model-b', points: [point('2026-01-01T02:00:00Z', 5)] },
      ],
      'requests',
      (name) => name.toUpperCase(),
    );
    expect(rows).toEqual([
      { at: '2026-01-01T01:00:00Z', 'MODEL-A': 1, 'MODEL-B': 0 },
      { at: '2026-01-01T02:00:00Z', 'MODEL-A': 3, 'MODEL-B': 5 },
    ]);
  });

  it('plots spend in units', () => {
    const rows = seriesRows([{ name: 'm', points: [point('t', 1, '2500000')] }], 'spend', (name) => name);
    expect(rows[0]['m']).toBe(2.5);
    expect(totalRows([point('t', 2, '1500000')])).toEqual([
      { at: 't', requests: 2, errors: 1, spend: 1.5, p50: 10, p95: 90 },
    ]);
  });
});
