import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How long a connection may stay silent during a shutdown before it is closed: long enough for the
 * first bytes of a request sent right after connecting to arrive on any network a gateway serves.
 */
export const SILENT_CONNECTION_MS = 1_000;

export interface SilentConnections {
  /** Closes the connections that have sent no byte for SILENT_CONNECTION_MS since they opened. */
  closeSilent(): void;
}

/**
 * Keeps the server's open connections with the moment each opened, for a shutdown to close those that
 * never sent a byte. Node counts such a connection as busy, not idle, so closeIdleConnections() leaves
 * it, and server.close() stops the checks of its headers timeout: the close would wait on it until the
 * client gives up. Clients open them ahead of need: undici's fetch reconnects when a connection of its
 * pool closes, balancers keep warm ones. One map entry per connection, not per request. Node offers no
 * list of a server's connections: the tracking is our own.
 */
export function trackSilentConnections(server: Server, now: () => number = Date.now): SilentConnections {
  const openedAt = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    openedAt.set(socket, now());
    socket.once('close', () => openedAt.delete(socket));
  });
  return {
    closeSilent() {
      const silentSince = now() - SILENT_CONNECTION_MS;
      for (const [socket, opened] of openedAt) {
        if (socket.bytesRead === 0 && opened <= silentSince) socket.destroy();
      }
    },
  };
}
