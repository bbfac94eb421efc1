import { register as globalRegistry } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS, createMetrics } from './create-metrics';

describe('createMetrics', () => {
  it('exposes every series with its labels in the text format', async () => {
    const metrics = createMetrics();

    metrics.httpRequests.inc({ route: '/v1/images/generations', method: 'POST', status: '200' });
    metrics.httpDuration.observe({ route: '/v1/images/generations', method: 'POST' }, 0.0007);
    metrics.upstreamErrors.inc({ channel: 'main', kind: 'rate_limit' }, 2);
    metrics.upstreamDuration.observe({ channel: 'main' }, 42);
    metrics.queueDepth.set({ queue: 'video', state: 'waiting' }, 7);
    metrics.holdsOpen.set(3);
    metrics.uncapturedMicros.inc(790_000);
    const text = await metrics.registry.metrics();

    expect(text).toContain(
      'gateway_http_requests_total{route="/v1/images/generations",method="POST",status="200"} 1',
    );
    expect(text).toContain(
      'gateway_http_request_duration_seconds_bucket{le="0.001",route="/v1/images/generations",method="POST"} 1',
    );
    expect(text).toContain(
      'gateway_http_request_duration_seconds_bucket{le="0.0005",route="/v1/images/generations",method="POST"} 0',
    );
    expect(text).toContain('gateway_upstream_errors_total{channel="main",kind="rate_limit"} 2');
    expect(text).toContain('gateway_upstream_duration_seconds_bucket{le="45",channel="main"} 1');
    expect(text).toContain('gateway_upstream_duration_seconds_bucket{le="30",channel="main"} 0');
    expect(text).toContain('gateway_queue_jobs{queue="video",state="waiting"} 7');
    expect(text).toContain('gateway_holds_open 3');
    expect(text).toContain('gateway_uncaptured_micros_total 790000');
  });

  it('uses buckets from 0.5 ms to 60 s in ascending order', () => {
    expect(LATENCY_BUCKETS_SECONDS[0]).toBe(0.0005);
    expect(LATENCY_BUCKETS_SECONDS[LATENCY_BUCKETS_SECONDS.length - 1]).toBe(60);
    expect([...LATENCY_BUCKETS_SECONDS].sort((a, b) => a - b)).toEqual(LATENCY_BUCKETS_SECONDS);
  });

  it('keeps each set of metrics in its own registry, never the global one', async () => {
    const first = createMetrics();
    const second = createMetrics();

    first.holdsOpen.set(5);

    expect(await second.registry.metrics()).toContain('gateway_holds_open 0');
    expect(await globalRegistry.metrics()).not.toContain('gateway_');
  });

  it('adds the process metrics only when asked', async () => {
    expect(await createMetrics().registry.metrics()).not.toContain('process_cpu_user_seconds_total');
    expect(await createMetrics({ processMetrics: true }).registry.metrics()).toContain(
      'process_cpu_user_seconds_total',
    );
  });
});
