import { createServer } from 'node:net';
import { createWorkerMetrics } from './worker-metrics';
import { startMetricsServer } from './metrics-server';

describe('startMetricsServer', () => {
  it('serves /metrics and /healthz, and nothing else', async () => {
    const metrics = createWorkerMetrics();
    metrics.limitRefusals.inc({ limit: 'rpm' });
    const server = await startMetricsServer(metrics.registry, 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const scraped = await fetch(`${base}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await scraped.text()).toContain('gateway_limit_refusals_total{limit="rpm"} 1');
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      expect((await fetch(`${base}/metrics/../admin`)).status).toBe(404);
      expect((await fetch(`${base}/`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST', body: 'x' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it('refuses to start on a port another listener holds', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      await expect(startMetricsServer(createWorkerMetrics().registry, port, '127.0.0.1')).rejects.toThrow(
        /EADDRINUSE/,
      );
    } finally {
      holder.close();
    }
  });
});
