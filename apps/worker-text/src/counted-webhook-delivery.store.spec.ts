import { createWorkerMetrics } from '@gateway/observability';
import type { Pool } from 'pg';
import { CountedWebhookDeliveryStore } from './counted-webhook-delivery.store';

describe('CountedWebhookDeliveryStore', () => {
  const delivery = { id: 'whd_1', lease: 'lease', attempts: 0 };
  const outcome = { statusCode: 500, latencyMs: 12, error: null };

  it('counts each recorded attempt by outcome, once the database has it', async () => {
    const metrics = createWorkerMetrics();
    const pool = { query: jest.fn().mockResolvedValue({ rows: [] }) } as unknown as Pool;
    const store = new CountedWebhookDeliveryStore(pool, metrics);

    await store.record(delivery, { status: 'pending', retryInMs: 1_000 }, outcome);
    await store.record(delivery, { status: 'pending', retryInMs: 5_000 }, outcome);
    await store.record(delivery, { status: 'delivered' }, { ...outcome, statusCode: 200 });
    const text = await metrics.registry.metrics();

    expect(text).toContain('gateway_webhook_deliveries_total{outcome="retry"} 2');
    expect(text).toContain('gateway_webhook_deliveries_total{outcome="delivered"} 1');
  });

  it('counts nothing when the outcome could not be written (the attempt is made again)', async () => {
    const metrics = createWorkerMetrics();
    const pool = { query: jest.fn().mockRejectedValue(new Error('connection lost')) } as unknown as Pool;
    const store = new CountedWebhookDeliveryStore(pool, metrics);

    await expect(store.record(delivery, { status: 'failed' }, outcome)).rejects.toThrow('connection lost');

    expect(await metrics.registry.metrics()).not.toContain('gateway_webhook_deliveries_total{');
  });

  it('counts a 410 Gone as failed once its one statement (the delivery failed, the endpoint disabled) is written', async () => {
    const metrics = createWorkerMetrics();
    const query = jest.fn().mockResolvedValue({ rows: [] });
    const store = new CountedWebhookDeliveryStore({ query } as unknown as Pool, metrics);

    await store.recordGone(delivery, { ...outcome, statusCode: 410 }, 'gone');

    expect(query).toHaveBeenCalledTimes(1);
    expect(String(query.mock.calls[0]?.[0])).toMatch(/UPDATE webhook_endpoints SET status = 'disabled'/);
    expect(await metrics.registry.metrics()).toContain(
      'gateway_webhook_deliveries_total{outcome="failed"} 1',
    );

    query.mockRejectedValueOnce(new Error('connection lost'));
    await expect(store.recordGone(delivery, outcome, 'gone')).rejects.toThrow('connection lost');
    expect(await metrics.registry.metrics()).toContain(
      'gateway_webhook_deliveries_total{outcome="failed"} 1',
    );
  });
});
