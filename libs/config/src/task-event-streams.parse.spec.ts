import { loadConfig } from './load-config';
import { problemsOf, REQUIRED } from './testing/config-problems';

describe('task event streams', () => {
  it('sends a heartbeat every 15 s, polls for missed announcements every 5 s, caps 100 streams per account and 20,000 per instance, keeps events 24 h', () => {
    expect(loadConfig(REQUIRED).taskEvents).toEqual({
      heartbeatMs: 15_000,
      fallbackPollMs: 5_000,
      maxStreamsPerAccount: 100,
      maxStreams: 20_000,
      retentionHours: 24,
    });
  });

  it('reads the settings', () => {
    const { taskEvents } = loadConfig({
      ...REQUIRED,
      TASK_EVENTS_HEARTBEAT_MS: '200',
      TASK_EVENTS_FALLBACK_POLL_MS: '50',
      TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT: '3',
      TASK_EVENTS_MAX_STREAMS: '1000',
      TASK_EVENTS_RETENTION_HOURS: '2',
    });
    expect(taskEvents).toEqual({
      heartbeatMs: 200,
      fallbackPollMs: 50,
      maxStreamsPerAccount: 3,
      maxStreams: 1000,
      retentionHours: 2,
    });
  });

  it('refuses a heartbeat too short to be one, and caps of none', () => {
    expect(problemsOf({ TASK_EVENTS_HEARTBEAT_MS: '1' })).toEqual([
      expect.stringContaining('TASK_EVENTS_HEARTBEAT_MS'),
    ]);
    expect(problemsOf({ TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT: '0' })).toEqual([
      expect.stringContaining('TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT'),
    ]);
  });
});
