import { InvalidConfigurationError } from '@gateway/config';
import { readWorkerConcurrency } from './worker-environment.util';

describe('readWorkerConcurrency', () => {
  it('uses the default when the variable is unset or blank', () => {
    expect(readWorkerConcurrency({}, 'VIDEO_WORKER_CONCURRENCY', 32)).toBe(32);
    expect(readWorkerConcurrency({ VIDEO_WORKER_CONCURRENCY: ' ' }, 'VIDEO_WORKER_CONCURRENCY', 32)).toBe(32);
  });

  it('reads a positive integer', () => {
    expect(readWorkerConcurrency({ VIDEO_WORKER_CONCURRENCY: '64' }, 'VIDEO_WORKER_CONCURRENCY', 32)).toBe(
      64,
    );
  });

  it('fails fast, naming the variable, on anything else', () => {
    for (const value of ['0', '-1', '2.5', 'many', '100000']) {
      expect(() =>
        readWorkerConcurrency({ TEXT_WORKER_CONCURRENCY: value }, 'TEXT_WORKER_CONCURRENCY', 16),
      ).toThrow(InvalidConfigurationError);
    }
    expect(() =>
      readWorkerConcurrency({ TEXT_WORKER_CONCURRENCY: 'x' }, 'TEXT_WORKER_CONCURRENCY', 16),
    ).toThrow(/TEXT_WORKER_CONCURRENCY/);
  });
});
