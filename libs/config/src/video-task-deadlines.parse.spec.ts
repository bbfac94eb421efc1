import { loadConfig } from './load-config';
import { problemsOf, REQUIRED } from './testing/config-problems';

describe('video task deadlines', () => {
  it('gives every family an hour by default', () => {
    const { videoTaskDeadlines } = loadConfig(REQUIRED);
    expect(videoTaskDeadlines.defaultMs).toBe(3_600_000);
    expect([...videoTaskDeadlines.byFamily]).toEqual([]);
  });

  it('reads the default and the overrides by family, in lower case', () => {
    const { videoTaskDeadlines } = loadConfig({
      ...REQUIRED,
      VIDEO_TASK_DEADLINE_MS: '600000',
      VIDEO_TASK_DEADLINES: ' delta=5400000, Gamma = 7200000 ,,',
    });
    expect(videoTaskDeadlines.defaultMs).toBe(600_000);
    expect([...videoTaskDeadlines.byFamily]).toEqual([
      ['delta', 5_400_000],
      ['gamma', 7_200_000],
    ]);
  });

  it.each([
    ['delta', 'must be family=milliseconds'],
    ['delta=soon', 'must be family=milliseconds'],
    ['delta=10', 'must be family=milliseconds'],
    ['=5000', 'must be family=milliseconds'],
    ['a=b=5000', 'must be family=milliseconds'],
    ['delta=5000,DELTA=6000', 'names the family "delta" twice'],
  ])('refuses VIDEO_TASK_DEADLINES=%s', (value, problem) => {
    expect(problemsOf({ VIDEO_TASK_DEADLINES: value }).join('\n')).toContain(problem);
  });

  it('refuses a default under one second', () => {
    expect(problemsOf({ VIDEO_TASK_DEADLINE_MS: '999' })).toEqual([
      'VIDEO_TASK_DEADLINE_MS must be an integer of at least 1000 (got "999")',
    ]);
  });
});
