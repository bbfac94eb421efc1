import { Histogram, Registry } from 'prom-client';
import { SeriesCache } from './series-cache';

describe('SeriesCache', () => {
  it('builds a series once per id and records through it', async () => {
    const registry = new Registry();
    const histogram = new Histogram({
      name: 'test_seconds',
      help: 'test',
      labelNames: ['channel'],
      buckets: [1],
      registers: [registry],
    });
    const cache = new SeriesCache<{ observe(value: number): void }>();
    let built = 0;
    const seriesOf = (channel: string) =>
      cache.get(channel, () => {
        built += 1;
        return histogram.labels({ channel });
      });

    seriesOf('alpha').observe(0.5);
    seriesOf('alpha').observe(2);
    seriesOf('beta').observe(0.1);

    expect(built).toBe(2);
    const text = await registry.metrics();
    expect(text).toContain('test_seconds_count{channel="alpha"} 2');
    expect(text).toContain('test_seconds_count{channel="beta"} 1');
  });
});
