import { PNG } from 'pngjs';
import { SafeFetchError, type SafeFetcher, type SafeFetchOptions } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { AlphaUrlImages, URL_IMAGE_HEADER_BUDGET } from './alpha-url-images';

const MB = 1024 * 1024;

// Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
function pngBytes(width: number, height: number): Buffer {
  return PNG.sync.write(new PNG({ width, height }), { filterType: 0 });
}

function gifBytes(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(13);
  bytes.write('GIF89a', 0, 'latin1');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** A URL's answer: its status, headers and body chunks; records what the checker pulled and closed. */
interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  chunks?: readonly Buffer[];
  error?: SafeFetchError;
}

class FakeFetcher implements SafeFetcher {
  readonly asked: Array<{ url: string; options: SafeFetchOptions | undefined }> = [];
  /** Chunks handed out, and bodies whose clean-up ran (the real fetcher frees its connection there). */
  readonly reads = { pulled: 0, closed: 0 };

  constructor(private readonly answers: Record<string, FakeAnswer>) {}

  get pulled(): number {
    return this.reads.pulled;
  }

  get closed(): number {
    return this.reads.closed;
  }

  async fetch(url: string, options?: SafeFetchOptions) {
    this.asked.push({ url, options });
    const answer = this.answers[url];
    if (answer.error) throw answer.error;
    return {
      status: answer.status ?? 206,
      headers: answer.headers ?? {},
      body: chunksOf(answer.chunks ?? [], this.reads),
    };
  }
}

async function* chunksOf(
  chunks: readonly Buffer[],
  reads: { pulled: number; closed: number },
): AsyncIterable<Buffer> {
  try {
    for (const chunk of chunks) {
      reads.pulled += 1;
      yield chunk;
    }
  } finally {
    reads.closed += 1;
  }
}

async function refusalOf(fetcher: FakeFetcher, ...urls: string[]): Promise<GatewayError | undefined> {
  const images = urls.map((url, index) => ({ url, param: `images[${index}]` }));
  try {
    await new AlphaUrlImages(fetcher).check(images);
    return undefined;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
}

describe('alpha URL images, checked from their first bytes', () => {
  it('asks for the header budget with a Range and stops reading, and closes, once the header is read', async () => {
    const png = pngBytes(256, 256);
    const fetcher = new FakeFetcher({
      'https://a.example/ok.png': { chunks: [png, Buffer.alloc(64 * 1024), Buffer.alloc(64 * 1024)] },
    });
    expect(await refusalOf(fetcher, 'https://a.example/ok.png')).toBeUndefined();
    expect(fetcher.asked[0].options).toMatchObject({
      headers: { range: `bytes=0-${URL_IMAGE_HEADER_BUDGET - 1}` },
      maxBytes: 50 * MB,
    });
    expect(fetcher.pulled).toBe(1);
    expect(fetcher.closed).toBe(1);
  });

  it('reads on through chunks until a header cut between them is whole', async () => {
    const png = pngBytes(300, 200);
    const fetcher = new FakeFetcher({
      'https://a.example/split.png': { status: 200, chunks: [png.subarray(0, 10), png.subarray(10)] },
    });
    expect(await refusalOf(fetcher, 'https://a.example/split.png')).toBeUndefined();
    expect(fetcher.pulled).toBe(2);
  });

  it.each([
    [
      'a size over 50 MB in Content-Range',
      { headers: { 'content-range': `bytes 0-1048575/${50 * MB + 1}` } },
      'FieldInvalid',
      'images[0] must be at most 50 MB, not 52428801 bytes',
    ],
    [
      'a 200 over 50 MB (refused by the fetcher)',
      { error: new SafeFetchError('too_large', 'body too large') },
      'FieldInvalid',
      'images[0] must be at most 50 MB',
    ],
    [
      'a private address',
      { error: new SafeFetchError('forbidden_address', 'x resolves to a non-public address') },
      'ImageDownloadFailure',
      'images[0] is at a non-public address',
    ],
    [
      'a host that does not resolve',
      { error: new SafeFetchError('unresolvable_host', 'cannot resolve x') },
      'ImageDownloadFailure',
      'images[0] could not be downloaded: cannot resolve x',
    ],
    [
      'a 404',
      { status: 404 },
      'ImageDownloadFailure',
      'images[0] could not be downloaded: it answered HTTP 404',
    ],
    [
      'a GIF',
      { chunks: [gifBytes(256, 256)] },
      'FieldInvalid',
      'images[0] must be png, jpeg, jpg, webp, not gif',
    ],
    [
      'a 127x127 PNG',
      { chunks: [pngBytes(127, 127)] },
      'FieldInvalid',
      'images[0] must be at least 128x128 pixels',
    ],
    [
      'a 5:1 PNG',
      { chunks: [pngBytes(640, 128)] },
      'FieldInvalid',
      'images[0] must have an aspect ratio between 1:4 and 4:1',
    ],
    [
      'no header at all',
      { chunks: [Buffer.from('<html></html>')] },
      'ImageFormatInvalid',
      'images[0] is not a png, jpeg, jpg or webp image',
    ],
  ] as const)('refuses %s, naming the image', async (_case, answer, reason, message) => {
    const fetcher = new FakeFetcher({ 'https://a.example/x': answer });
    const refusal = await refusalOf(fetcher, 'https://a.example/x');
    expect(refusal).toMatchObject({ httpStatus: 400, param: 'images[0]', options: { upstreamCode: reason } });
    expect(refusal?.message).toContain(message);
  });

  it('stops at the budget when no header comes', async () => {
    const chunk = Buffer.alloc(256 * 1024);
    const fetcher = new FakeFetcher({ 'https://a.example/zeros': { chunks: Array(8).fill(chunk) } });
    expect((await refusalOf(fetcher, 'https://a.example/zeros'))?.options.upstreamCode).toBe(
      'ImageFormatInvalid',
    );
    expect(fetcher.pulled).toBe(URL_IMAGE_HEADER_BUDGET / chunk.length);
    expect(fetcher.closed).toBe(1);
  });

  it('answers the first image at fault in the request order', async () => {
    const fetcher = new FakeFetcher({
      'https://a.example/ok.png': { chunks: [pngBytes(256, 256)] },
      'https://a.example/small.png': { chunks: [pngBytes(100, 100)] },
      'https://a.example/gone.png': { status: 410 },
    });
    const refusal = await refusalOf(
      fetcher,
      'https://a.example/ok.png',
      'https://a.example/small.png',
      'https://a.example/gone.png',
    );
    expect(refusal?.param).toBe('images[1]');
  });
});
