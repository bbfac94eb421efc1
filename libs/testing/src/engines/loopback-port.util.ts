import { createServer } from 'node:net';

/** Whether nothing listens on `port` of the loopback interface right now. */
export function isLoopbackPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` consecutive loopback ports that are free, and whose ports `offset` above are free too (a
 * Redis Cluster node also listens on its port + 10000 for the cluster bus). Picked at random in a range
 * that the kernel does not hand out as ephemeral ports, so that two runs rarely race for the same.
 */
export async function freeLoopbackPortRange(count: number, offset = 0): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const base = 20_000 + Math.floor(Math.random() * (12_000 - count));
    const ports = Array.from({ length: count }, (_, index) => base + index);
    const wanted = offset > 0 ? [...ports, ...ports.map((port) => port + offset)] : ports;
    const free = await Promise.all(wanted.map((port) => isLoopbackPortFree(port)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} free loopback ports found`);
}
