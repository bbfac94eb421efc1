import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import { test } from 'node:test';
import { addressFromProcHex, localAddressesOf, parseProcNetTcp } from './process-sockets.mjs';

test('kernel hex addresses become the form Redis prints', () => {
  assert.equal(addressFromProcHex('0100007F:18EB'), '127.0.0.1:6379');
  assert.equal(addressFromProcHex('0200A8C0:0050'), '192.168.0.2:80');
  assert.equal(addressFromProcHex('00000000000000000000000001000000:E4C8'), '[::1]:58568');
});

test('a /proc/net/tcp table yields its established connections only', () => {
  const table = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:18EB 00000000:0000 0A 00000000:00000000 00:00000000 00000000   116        0 23373 1 0 100 0 0 10 0',
    '   1: 0100007F:B6A4 0100007F:18EB 01 00000000:00000000 00:00000000 00000000     0        0 40111 1 0 20 4 30 10 -1',
    '',
  ].join('\n');
  assert.deepEqual(parseProcNetTcp(table), [
    { localAddress: '127.0.0.1:46756', remotePort: 6379, inode: '40111' },
  ]);
});

test("a process's connections to a port are found by their local address", async () => {
  const server = createServer(() => {});
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const socket = connect({ port, host: '127.0.0.1' });
  await new Promise((resolve) => socket.once('connect', resolve));
  try {
    // The server's side of the same connection is not one: its remote port is the client's.
    assert.deepEqual(localAddressesOf(process.pid, port), [`127.0.0.1:${socket.localPort}`]);
  } finally {
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});
