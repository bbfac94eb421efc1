import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { SILENT_CONNECTION_MS, trackSilentConnections, type SilentConnections } from './silent-connections';

describe('trackSilentConnections', () => {
  let server: Server;
  let clock: { nowMs: number };
  let silent: SilentConnections;
  const sockets: Socket[] = [];

  beforeEach(async () => {
    server = createServer(() => undefined);
    clock = { nowMs: 1_000_000 };
    silent = trackSilentConnections(server, () => clock.nowMs);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  /** A client connection, once the server has accepted it. */
  async function opened(): Promise<Socket> {
    const accepted = once(server, 'connection');
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    socket.on('error', () => undefined);
    sockets.push(socket);
    await Promise.all([once(socket, 'connect'), accepted]);
    return socket;
  }

  it('closes a connection silent for the whole threshold, and not one silent for less', async () => {
    const socket = await opened();
    clock.nowMs += SILENT_CONNECTION_MS - 1;
    silent.closeSilent();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(socket.readyState).toBe('open');

    clock.nowMs += 1;
    const closed = once(socket, 'close');
    silent.closeSilent();
    await closed;
  });

  it('leaves a connection that has sent a request, even one still arriving', async () => {
    const socket = await opened();
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.nowMs += SILENT_CONNECTION_MS * 10;
    silent.closeSilent();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(socket.readyState).toBe('open');
  });
});
