import type { AppProcess } from '@gateway/testing';
import { createServer } from 'node:net';

export { AppProcess, BuiltApps, type ProcessExit } from '@gateway/testing';

/** A loopback port free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until the gateway at `url` answers its liveness route, or its process ends. */
export async function untilListening(url: string, gateway: AppProcess): Promise<void> {
  for (;;) {
    if (!gateway.running) throw new Error(`gateway ended while starting:\n${gateway.lines.join('\n')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
