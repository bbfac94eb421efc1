import { loadConfig } from './load-config';
import { problemsOf, REQUIRED } from './testing/config-problems';

describe('task retention', () => {
  it('keeps finished rows 90 days and their requests 30 by default, swept every 10 minutes', () => {
    expect(loadConfig(REQUIRED).taskRetention).toEqual({
      taskDays: 90,
      requestDays: 30,
      sweepIntervalMs: 600_000,
    });
  });

  it('reads the settings, 0 keeping for ever', () => {
    const { taskRetention } = loadConfig({
      ...REQUIRED,
      TASK_RETENTION_DAYS: '0',
      TASK_REQUEST_RETENTION_DAYS: '7',
      TASK_RETENTION_SWEEP_INTERVAL_MS: '60000',
    });
    expect(taskRetention).toEqual({ taskDays: 0, requestDays: 7, sweepIntervalMs: 60_000 });
  });

  it('refuses a request retention longer than the row retention, and values that are not days', () => {
    expect(problemsOf({ TASK_RETENTION_DAYS: '10', TASK_REQUEST_RETENTION_DAYS: '20' })).toEqual([
      'TASK_REQUEST_RETENTION_DAYS (20) must not exceed TASK_RETENTION_DAYS (10): the row is deleted first',
    ]);
    expect(problemsOf({ TASK_RETENTION_DAYS: '-1' })).toEqual([
      'TASK_RETENTION_DAYS must be an integer between 0 and 10950 (got "-1")',
    ]);
  });
});
