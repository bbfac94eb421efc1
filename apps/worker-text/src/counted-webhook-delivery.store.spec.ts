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

  it('counts a 410 Gone as failed once its transaction (the delivery failed, the endpoint disabled) commits', async () => {
    const metrics = createWorkerMetrics();
    const statements: string[] = [];
    const client = {
      query: jest.fn((sql: string) => {
        statements.push(sql.trim().split(/\s+/)[0] ?? '');
        return Promise.resolve({ rows: [] });
      }),
      release: jest.fn(),
    };
    const pool = { connect: jest.fn().mockResolvedValue(client) } as unknown as Pool;
    const store = new CountedWebhookDeliveryStore(pool, metrics);

    await store.recordGone({ ...delivery, endpointId: 'whe_1' }, { ...outcome, statusCode: 410 }, 'gone');

    expect(statements[0]).toBe('BEGIN');
    expect(statements.at(-1)).toBe('COMMIT');
    expect(statements.filter((statement) => statement === 'UPDATE').length).toBeGreaterThanOrEqual(1);
    expect(client.release).toHaveBeenCalled();
    expect(await metrics.registry.metrics()).toContain(
      'gateway_webhook_deliveries_total{outcome="failed"} 1',
    );
  });
});
