import { loadConfig } from './load-config';
import { problemsOf, REQUIRED } from './testing/config-problems';

describe('rollup retention', () => {
  it('keeps minute rows 7 days and hour rows 400 by default, swept 5,000 rows a statement', () => {
    expect(loadConfig(REQUIRED).rollupRetention).toEqual({ minuteDays: 7, hourDays: 400, sweepBatch: 5_000 });
  });

  it('reads the settings', () => {
    const { rollupRetention } = loadConfig({
      ...REQUIRED,
      ROLLUP_MINUTE_RETENTION_DAYS: '3',
      ROLLUP_HOUR_RETENTION_DAYS: '30',
      ROLLUP_SWEEP_BATCH: '100',
    });
    expect(rollupRetention).toEqual({ minuteDays: 3, hourDays: 30, sweepBatch: 100 });
  });

  it('keeps the minutes of the longest minute chart, and hours at least as long as minutes', () => {
    expect(problemsOf({ ROLLUP_MINUTE_RETENTION_DAYS: '1' })).toEqual([
      'ROLLUP_MINUTE_RETENTION_DAYS must be an integer between 2 and 10950 (got "1")',
    ]);
    expect(problemsOf({ ROLLUP_MINUTE_RETENTION_DAYS: '30', ROLLUP_HOUR_RETENTION_DAYS: '10' })).toEqual([
      'ROLLUP_HOUR_RETENTION_DAYS (10) must not be shorter than ROLLUP_MINUTE_RETENTION_DAYS (30): hours stand in for swept minutes',
    ]);
    expect(problemsOf({ ROLLUP_SWEEP_BATCH: '0' })).toEqual([
      'ROLLUP_SWEEP_BATCH must be an integer between 1 and 1000000 (got "0")',
    ]);
  });
});
