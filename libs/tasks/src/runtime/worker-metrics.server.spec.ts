import { InvalidConfigurationError } from '@gateway/config';
import { readWorkerMetricsSettings } from './worker-metrics.server';

describe('readWorkerMetricsSettings', () => {
  it('gives each worker its own default port when it runs from the process environment', () => {
    expect(readWorkerMetricsSettings({}, 'worker-video', true)).toEqual({
      port: 9103,
      host: '0.0.0.0',
      explicit: false,
    });
    expect(readWorkerMetricsSettings({}, 'worker-text', true).port).toBe(9101);
  });

  it('stays off for an environment a test hands over, unless the test sets the port', () => {
    expect(readWorkerMetricsSettings({}, 'worker-video', false).port).toBe(0);
    expect(
      readWorkerMetricsSettings(
        { WORKER_METRICS_PORT: '9555', WORKER_METRICS_HOST: '127.0.0.1' },
        'worker-video',
        false,
      ),
    ).toEqual({ port: 9555, host: '127.0.0.1', explicit: true });
    expect(readWorkerMetricsSettings({ WORKER_METRICS_PORT: '0' }, 'worker-video', true).port).toBe(0);
  });

  it.each(['-1', '65536', '12.5', 'metrics'])('refuses WORKER_METRICS_PORT=%s at boot', (value) => {
    expect(() => readWorkerMetricsSettings({ WORKER_METRICS_PORT: value }, 'worker-video', true)).toThrow(
      InvalidConfigurationError,
    );
  });
});
