import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientIdsAt, parseClientList } from './redis-clients.mjs';

const CLIENT_LIST = [
  'id=187 addr=127.0.0.1:46756 laddr=127.0.0.1:6379 fd=8 name= age=0 idle=0 flags=N db=0 cmd=client|list user=default',
  'id=190 addr=[::1]:58760 laddr=[::1]:6379 fd=9 name=bull:dGV4dA== age=3 idle=3 flags=b db=0 cmd=bzpopmin user=default',
  'id=191 addr=127.0.0.1:50000 laddr=127.0.0.1:6379 fd=10 name= age=3 idle=0 flags=N db=0 cmd=evalsha user=default',
  '',
].join('\n');

test('CLIENT LIST lines become their fields, values with = or : kept whole', () => {
  const clients = parseClientList(CLIENT_LIST);
  assert.equal(clients.length, 3);
  assert.equal(clients[0].addr, '127.0.0.1:46756');
  assert.equal(clients[1].name, 'bull:dGV4dA==');
  assert.equal(clients[1].cmd, 'bzpopmin');
  assert.equal(clients[0].name, '');
});

test('only the clients at the given addresses are picked', () => {
  const clients = parseClientList(CLIENT_LIST);
  assert.deepEqual(clientIdsAt(clients, ['[::1]:58760', '127.0.0.1:50000', '127.0.0.1:1']), ['190', '191']);
  assert.deepEqual(clientIdsAt(clients, []), []);
});
