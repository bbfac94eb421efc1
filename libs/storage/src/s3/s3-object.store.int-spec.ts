import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { S3ObjectStoreConfig } from '@gateway/config';
import S3rver from 's3rver';
import { createObjectStore } from '../object-store.factory';
import { describeObjectStoreContract } from '../testing/object-store.contract';
import { createS3Client } from './s3-client.factory';
import { S3ObjectStore } from './s3-object.store';

// s3rver's one account; it checks every request's signature against this key pair.
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const BUCKET = 'objects';

const directory = mkdtempSync(join(tmpdir(), 's3-object-store-'));
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  directory,
  silent: true,
  configureBuckets: [{ name: BUCKET }],
});
let config: S3ObjectStoreConfig;
let namespaces = 0;
const freshPrefix = () => `run-${(namespaces += 1)}/`;

beforeAll(async () => {
  const { port } = await server.run();
  config = {
    kind: 's3',
    retentionHours: 24,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'test-1',
    bucket: BUCKET,
    keyPrefix: '',
    credentials: CREDENTIALS,
    forcePathStyle: true,
  };
});

afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describeObjectStoreContract('S3-compatible server', (clock, retentionHours) =>
  createObjectStore({ ...config, retentionHours, keyPrefix: freshPrefix() }, clock),
);

describe('S3ObjectStore in its bucket', () => {
  let client: S3Client;
  let keyPrefix: string;
  let store: S3ObjectStore;

  beforeEach(() => {
    client = createS3Client(config);
    keyPrefix = freshPrefix();
    store = new S3ObjectStore({ client, bucket: BUCKET, keyPrefix, retentionHours: 1 });
  });

  afterEach(() => client.destroy());

  it('stores one key per object with its content type and expiry as object metadata', async () => {
    const stored = await store.put(Buffer.from('png bytes'), { contentType: 'image/png' });

    const head = await client.send(
      new HeadObjectCommand({ Bucket: BUCKET, Key: `${keyPrefix}${stored.id}` }),
    );

    expect(head.ContentType).toBe('image/png');
    expect(head.ContentLength).toBe(9);
    expect(head.Metadata).toEqual({ 'expires-at': stored.expiresAt.toISOString() });
  });

  // s3rver reads the end of `bytes=0-0` as absent and sends all ten bytes under Content-Range 0-9:
  // a server's wrong answer must surface as an error, never as ten bytes labelled as one.
  it('refuses an answer that holds other bytes than the range asked for', async () => {
    const stored = await store.put(Buffer.from('0123456789'), { contentType: 'image/png' });

    await expect(store.get(stored.id, { start: 0, end: 0 })).rejects.toThrow(
      'the S3 server sent bytes 0-9 for 0-0',
    );
  });

  it('sweeps only the ids under its prefix and leaves other keys alone', async () => {
    const stored = await store.put(Buffer.from('x'), { contentType: 'image/png' });
    const foreignKeys = [`${keyPrefix}0000000001-readme.txt`, `${keyPrefix}notes.txt`, `other-${stored.id}`];
    for (const key of foreignKeys) {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'kept' }));
    }

    const result = await store.sweepExpired(new Date(stored.expiresAt.getTime() + 1000));

    expect(result).toEqual({ removed: 1, failed: 0 });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    const remaining = (listed.Contents ?? []).map((entry) => entry.Key);
    expect(remaining).toEqual(expect.arrayContaining(foreignKeys));
    expect(remaining).not.toContain(`${keyPrefix}${stored.id}`);
  });
});
