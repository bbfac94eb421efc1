import Redis, { Cluster } from 'ioredis';
import { createRedisConnection, type RedisConnection } from './redis-connection.factory';

const credentials = { username: 'gateway', password: 'node-password', tls: false };

describe('createRedisConnection', () => {
  const made: RedisConnection[] = [];
  // lazyConnect: nothing is dialled; the tests read the options each client was built with.
  const make = (...args: Parameters<typeof createRedisConnection>) => {
    const connection = createRedisConnection(args[0], { lazyConnect: true, ...args[1] });
    made.push(connection);
    return connection;
  };

  afterAll(() => made.forEach((connection) => connection.disconnect()));

  it('builds one client from the URL of a single server, waiting through outages by default', () => {
    const connection = make(
      { kind: 'single', url: 'redis://cache:6380/2' },
      { connectionName: 'gw:commands' },
    );

    expect(connection).toBeInstanceOf(Redis);
    expect((connection as Redis).options).toMatchObject({
      host: 'cache',
      port: 6380,
      db: 2,
      connectionName: 'gw:commands',
      maxRetriesPerRequest: null,
    });
  });

  it('builds a cluster client from the seed nodes, writing to primaries only, with the node credentials', () => {
    const connection = make({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      ...credentials,
      tls: true,
    });

    expect(connection).toBeInstanceOf(Cluster);
    const cluster = connection as Cluster;
    expect(cluster.options).toMatchObject({ scaleReads: 'master' });
    expect(cluster.options.redisOptions).toMatchObject({
      username: 'gateway',
      password: 'node-password',
      tls: {},
      maxRetriesPerRequest: null,
    });
  });

  it('asks the Sentinels for the primary of the named master', () => {
    const connection = make(
      {
        kind: 'sentinel',
        sentinels: [{ host: 's1', port: 26379 }],
        masterName: 'primary',
        sentinelPassword: 'sentinel-password',
        ...credentials,
      },
      { maxRetriesPerRequest: 1 },
    );

    expect(connection).toBeInstanceOf(Redis);
    expect((connection as Redis).options).toMatchObject({
      sentinels: [{ host: 's1', port: 26379 }],
      name: 'primary',
      role: 'master',
      sentinelPassword: 'sentinel-password',
      password: 'node-password',
      maxRetriesPerRequest: 1,
    });
  });
});
