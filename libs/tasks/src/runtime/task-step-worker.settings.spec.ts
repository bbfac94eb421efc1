import { InvalidConfigurationError } from '@gateway/config';
import { DEFAULT_TASK_STEP_TIMING } from '../task/task-step.types';
import { readSweepSettings, readTaskStepTiming } from './task-step-worker.settings';

describe('task step worker settings from the environment', () => {
  it('default to the processor timing and a sweep every minute for tasks idle two minutes', () => {
    expect(readTaskStepTiming({})).toEqual(DEFAULT_TASK_STEP_TIMING);
    expect(readSweepSettings({})).toEqual({
      overdueSweepIntervalMs: 60_000,
      strandedSweepIntervalMs: 60_000,
      strandedAfterMs: 120_000,
    });
  });

  it('read each variable, the maximum poll delay never below the minimum', () => {
    expect(
      readTaskStepTiming({
        TASK_MIN_POLL_DELAY_MS: '2000',
        TASK_MAX_POLL_DELAY_MS: '500',
        TASK_SUBMISSION_TIMEOUT_MS: '3000',
        TASK_PROGRESS_WRITE_INTERVAL_MS: '250',
      }),
    ).toEqual({
      minPollDelayMs: 2_000,
      maxPollDelayMs: 2_000,
      submissionTimeoutMs: 3_000,
      progressWriteIntervalMs: 250,
    });
    expect(readSweepSettings({ TASK_SWEEP_INTERVAL_MS: '1000', TASK_STRANDED_AFTER_MS: '5000' })).toEqual({
      overdueSweepIntervalMs: 1_000,
      strandedSweepIntervalMs: 1_000,
      strandedAfterMs: 5_000,
    });
  });

  it('fail fast, naming the variable', () => {
    expect(() => readTaskStepTiming({ TASK_SUBMISSION_TIMEOUT_MS: '0' })).toThrow(InvalidConfigurationError);
    expect(() => readSweepSettings({ TASK_STRANDED_AFTER_MS: 'soon' })).toThrow(/TASK_STRANDED_AFTER_MS/);
    expect(() => readTaskStepTiming({ TASK_PROGRESS_WRITE_INTERVAL_MS: '-1' })).toThrow(
      /TASK_PROGRESS_WRITE_INTERVAL_MS/,
    );
  });
});
