import { toOverviewView } from './overview.mapper';
import type { OverviewSqlRow } from './overview-query.sql';

// Latencies 10, 20, 30 and 40 ms: buckets [10, 15), [20, 30) and [30, 50) twice.
const FOUR = '0,0,0,0,0,0,1,0,1,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0';
const ONE_AT_20 = '0,0,0,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0';
const FIVE = '0,0,0,0,0,0,1,0,2,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0';

function row(
  series: OverviewSqlRow['series'],
  name: string | null,
  requests: number,
  fields: Partial<OverviewSqlRow> = {},
): OverviewSqlRow {
  return {
    series,
    name,
    at: '2026-06-01T10:00:00.000Z',
    requests: String(requests),
    errors: '1',
    spend_micros: '9007199254740993',
    latency_histogram: FOUR,
    ...fields,
  };
}

const window = { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-06-01T12:00:00Z') };

describe('toOverviewView', () => {
  it('keeps money exact, estimates percentiles, and orders the top series by requests', () => {
    const view = toOverviewView(
      [
        row('total', null, 4),
        row('total', null, 4, { at: '2026-06-01T09:00:00.000Z' }),
        row('model', 'a', 4),
        row('model', 'b', 4, { at: '2026-06-01T09:00:00.000Z' }),
        row('channel', 'ch_a', 4),
        row('channel', 'ch_a', 4, { at: '2026-06-01T09:00:00.000Z' }),
      ],
      window,
      'hour',
    );
    expect(view.total[0].at).toBe('2026-06-01T09:00:00.000Z');
    expect(view.total[1]).toEqual({
      at: '2026-06-01T10:00:00.000Z',
      requests: 4,
      errors: 1,
      spendMicros: '9007199254740993',
      latencyP50Ms: 30,
      latencyP95Ms: 43.5,
    });
    // Equal requests: by name. No (other): the top series hold every request.
    expect(view.byModel.map((series) => series.name)).toEqual(['a', 'b']);
    expect(view.byChannel.map((series) => series.name)).toEqual(['ch_a']);
    expect(view).toMatchObject({ from: '2026-06-01T00:00:00.000Z', bucket: 'hour' });
  });

  it('sums the parts of one point (a partial hour read from minutes and raw rows)', () => {
    const view = toOverviewView(
      [
        row('total', null, 4, { spend_micros: '9007199254740993' }),
        row('total', null, 1, { spend_micros: '7', errors: '0', latency_histogram: ONE_AT_20 }),
      ],
      window,
      'hour',
    );
    expect(view.total).toEqual([
      expect.objectContaining({
        requests: 5,
        errors: 1,
        spendMicros: '9007199254741000',
        latencyP50Ms: 27.5,
      }),
    ]);
  });

  it('gives (other) what the overall point holds beyond the top series, last, and only where it has requests', () => {
    const view = toOverviewView(
      [
        row('total', null, 5, { spend_micros: '100', errors: '2', latency_histogram: FIVE }),
        row('model', 'a', 4, { spend_micros: '93', errors: '1' }),
        row('total', null, 1, { at: '2026-06-01T11:00:00.000Z', latency_histogram: ONE_AT_20 }),
        row('model', 'a', 1, { at: '2026-06-01T11:00:00.000Z', latency_histogram: ONE_AT_20 }),
      ],
      window,
      'hour',
    );
    // The overall 10:00 point holds FOUR and one more at 20 ms, model a FOUR: (other) the one at 20 ms.
    expect(view.byModel.map((series) => series.name)).toEqual(['a', '(other)']);
    expect(view.byModel[1].points).toEqual([
      {
        at: '2026-06-01T10:00:00.000Z',
        requests: 1,
        errors: 1,
        spendMicros: '7',
        latencyP50Ms: 25,
        latencyP95Ms: 25,
      },
    ]);
  });

  it('has an (other) only where the top series leave requests', () => {
    const view = toOverviewView(
      [
        row('total', null, 4),
        row('channel', 'ch_a', 4),
        row('model', 'a', 3, { latency_histogram: ONE_AT_20 }),
      ],
      window,
      'minute',
    );
    expect(view.byChannel.map((series) => series.name)).toEqual(['ch_a']);
    // Without model rows the whole overall series is (other); with some, what they leave.
    expect(view.byModel.map((series) => [series.name, series.points[0].requests])).toEqual([
      ['a', 3],
      ['(other)', 1],
    ]);
  });
});
