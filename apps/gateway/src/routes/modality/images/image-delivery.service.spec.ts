import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import pino from 'pino';
import { PNG } from 'pngjs';
import {
  RequestCancellation,
  SafeFetchError,
  type SafeFetcher,
  type SafeFetchResponse,
} from '@gateway/providers-core';
import { LocalObjectStore } from '@gateway/storage';
import { ImageDeliveryService, type ImageDeliveryTarget } from './image-delivery.service';

function png(width: number, height: number): Buffer {
  return PNG.sync.write(new PNG({ width, height }), { deflateLevel: 1 });
}

/** A fetcher serving fixed answers by URL; any other URL is refused as the safe fetcher refuses. */
function fetcherOf(
  answers: Record<string, { status: number; body: Buffer }>,
): SafeFetcher & { fetched: string[] } {
  const fetched: string[] = [];
  return {
    fetched,
    async fetch(url): Promise<SafeFetchResponse> {
      const answer = answers[url];
      if (!answer) throw new SafeFetchError('forbidden_address', 'refused');
      fetched.push(url);
      return {
        status: answer.status,
        headers: {},
        contentType: 'application/octet-stream',
        body: (async function* () {
          yield answer.body;
        })(),
      };
    },
  };
}

describe('ImageDeliveryService', () => {
  let directory: string;
  let store: LocalObjectStore;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'w1-delivery-'));
    store = new LocalObjectStore({ directory, retentionHours: 1 });
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  function serviceWith(fetcher: SafeFetcher): ImageDeliveryService {
    return new ImageDeliveryService(fetcher, store, pino({ level: 'silent' }));
  }

  function target(format: 'url' | 'b64'): ImageDeliveryTarget {
    return {
      format,
      baseUrl: 'https://gateway.example',
      requestId: 'req_1',
      signal: new RequestCancellation(),
    };
  }

  it('answers bytes as Base64 unchanged, with the revised prompt', async () => {
    const bytes = png(4, 3);
    const [delivered] = await serviceWith(fetcherOf({})).deliver(
      [{ kind: 'bytes', bytes, contentType: 'image/png', revisedPrompt: 'A red fox' }],
      target('b64'),
    );
    expect(delivered).toEqual({ b64_json: bytes.toString('base64'), revised_prompt: 'A red fox' });
  });

  it('stores bytes wanted as a URL and answers the gateway URL of the stored file', async () => {
    const bytes = png(5, 2);
    const [delivered] = await serviceWith(fetcherOf({})).deliver(
      [{ kind: 'bytes', bytes, contentType: 'application/octet-stream' }],
      target('url'),
    );
    const id = /^https:\/\/gateway\.example\/files\/(.+)$/.exec(delivered?.url ?? '')?.[1] ?? '';
    const stored = await store.get(id);
    expect(stored?.contentType).toBe('image/png');
    const chunks: Buffer[] = [];
    for await (const chunk of stored?.body ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('downloads an upstream URL through the fetcher for Base64, and mirrors it for a URL', async () => {
    const bytes = png(7, 7);
    const fetcher = fetcherOf({ 'https://upstream.example/1.png': { status: 200, body: bytes } });
    const image = { kind: 'url' as const, url: 'https://upstream.example/1.png' };
    const [asBase64] = await serviceWith(fetcher).deliver([image], target('b64'));
    expect(imageSize(Buffer.from(asBase64?.b64_json ?? '', 'base64'))).toMatchObject({ width: 7, height: 7 });
    const [asUrl] = await serviceWith(fetcher).deliver([image], target('url'));
    expect(asUrl?.url).toMatch(/^https:\/\/gateway\.example\/files\//);
    expect(asUrl?.url).not.toContain('upstream.example');
    expect(fetcher.fetched).toEqual(['https://upstream.example/1.png', 'https://upstream.example/1.png']);
  });

  it('leaves out what cannot be delivered: a refused URL, an error answer, bytes that are no image', async () => {
    const fetcher = fetcherOf({
      'https://upstream.example/gone.png': { status: 404, body: Buffer.from('gone') },
    });
    const delivered = await serviceWith(fetcher).deliver(
      [
        { kind: 'url', url: 'http://169.254.169.254/latest/meta-data/' },
        { kind: 'url', url: 'https://upstream.example/gone.png' },
        { kind: 'bytes', bytes: Buffer.from('not an image'), contentType: 'image/png' },
        { kind: 'bytes', bytes: png(1, 1), contentType: 'image/png' },
      ],
      target('b64'),
    );
    expect(delivered.map((item) => item !== undefined)).toEqual([false, false, false, true]);
  });
});
