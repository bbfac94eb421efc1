import { EnvironmentReader } from './environment-reader';
import { parseWebhookSettings } from './webhook-settings.parse';

function parse(env: Record<string, string>) {
  const reader = new EnvironmentReader(env);
  return { settings: parseWebhookSettings(reader), problems: reader.problems };
}

describe('parseWebhookSettings', () => {
  it('defaults to the Standard Webhooks schedule and a 10 s timeout', () => {
    const { settings, problems } = parse({});
    expect(problems).toEqual([]);
    expect(settings.retryScheduleMs).toEqual([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(settings.timeoutMs).toBe(10_000);
  });

  it('reads a short schedule for tests, with milliseconds', () => {
    const { settings, problems } = parse({ WEBHOOK_RETRY_SCHEDULE: '0s, 200ms,1s' });
    expect(problems).toEqual([]);
    expect(settings.retryScheduleMs).toEqual([0, 200, 1_000]);
  });

  it.each(['5', '5x', '-1s', '1s,,2s', '8d', 'Infinity'])('refuses the schedule %j', (value) => {
    expect(parse({ WEBHOOK_RETRY_SCHEDULE: value }).problems).toEqual([
      expect.stringContaining('WEBHOOK_RETRY_SCHEDULE'),
    ]);
  });

  it('refuses a per-endpoint bound above the worker bound', () => {
    const { problems } = parse({ WEBHOOK_ENDPOINT_CONCURRENCY: '10', WEBHOOK_WORKER_CONCURRENCY: '5' });
    expect(problems).toEqual([expect.stringContaining('WEBHOOK_ENDPOINT_CONCURRENCY')]);
  });
});
