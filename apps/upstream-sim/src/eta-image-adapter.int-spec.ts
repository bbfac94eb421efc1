import { imageAdapterFor } from '@gateway/providers';
import {
  createUndiciHttpClient,
  systemClock,
  UpstreamError,
  type AdapterContext,
  type ClosableUpstreamHttpClient,
  type GeneratedImage,
  type ImageGenerationCall,
  type ImageRequest,
  type PlainKeyCredentials,
  type SynchronousImageAdapter,
} from '@gateway/providers-core';
import {
  DEFAULT_ETA_KEY,
  startSimulator,
  type JournalEntry,
  type RunningSimulator,
} from '@gateway/simulators';
import { imageSize } from 'image-size';
import { PNG } from 'pngjs';

/**
 * The eta channel type's image capability, taken from the registry as the gateway takes it. It is
 * tested here, against the simulator over HTTP, because only an app may import both.
 */
function registeredAdapter(): SynchronousImageAdapter {
  const adapter = imageAdapterFor('eta');
  if (adapter?.mode !== 'synchronous') throw new Error('eta has no synchronous image capability');
  return adapter;
}
const iotaImageAdapter = registeredAdapter();

/** The call the rules plan for a request, addressed to the model as its upstream id. */
function plannedCall(fields: Partial<ImageRequest>): ImageGenerationCall {
  const request: ImageRequest = {
    model: 'eta-iota-4-5-251128',
    prompt: 'a lighthouse at dusk',
    responseFormat: 'url',
    images: [],
    ...fields,
  };
  const plan = iotaImageAdapter.plan(request, 'generate');
  if (!plan.ok) throw new Error(`refused: ${plan.message}`);
  return { ...plan.call, upstreamModel: request.model };
}

async function dimensionsOf(
  image: GeneratedImage,
): Promise<{ width?: number; height?: number; type?: string }> {
  const bytes =
    image.kind === 'bytes' ? image.bytes : Buffer.from(await (await fetch(image.url)).arrayBuffer());
  return imageSize(bytes);
}

async function failureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected an UpstreamError');
}

describe('iotaImageAdapter against the eta simulator', () => {
  let simulator: RunningSimulator;
  let http: ClosableUpstreamHttpClient;
  /** `directives` script the simulator through the channel's base URL, as a channel row can. */
  const contextFor = (directives = '', apiKey = DEFAULT_ETA_KEY): AdapterContext<PlainKeyCredentials> => ({
    channel: {
      baseUrl: directives ? `${simulator.url}/@${directives}` : simulator.url,
      credentials: { apiKey },
      settings: {},
    },
    http,
    clock: systemClock,
    logger: { warn: () => undefined, debug: () => undefined },
  });
  const lastReceivedBody = async (): Promise<Record<string, unknown>> => {
    const entries = (await (await fetch(`${simulator.url}/__sim/requests`)).json()) as JournalEntry[];
    return JSON.parse(entries[entries.length - 1].body);
  };

  beforeAll(async () => {
    simulator = await startSimulator();
    http = createUndiciHttpClient();
  });
  afterAll(async () => {
    await http.close();
    await simulator.close();
  });

  it.each([
    ['eta-iota-4-0-250828', '4:3', 2304, 1728],
    ['eta-iota-4-5-251128', '16:9', 2560, 1440],
    ['eta-iota-5-0-260128', '21:9', 3024, 1296],
    ['eta-iota-5-0-260128', '9:16', 1440, 2560],
  ])('%s at %s returns a URL to an image of %sx%s', async (model, size, width, height) => {
    const result = await iotaImageAdapter.generate(plannedCall({ model, size }), contextFor());
    expect(result.images).toHaveLength(1);
    expect(result.images[0].kind).toBe('url');
    expect(await dimensionsOf(result.images[0])).toMatchObject({ type: 'jpg', width, height });
    expect(result.usage).toEqual({ images: { count: 1, size: `${width}x${height}` } });
  });

  it('returns Base64 as JPEG bytes of the asked size, with watermark false and references received', async () => {
    const reference = {
      kind: 'bytes' as const,
      bytes: PNG.sync.write(new PNG({ width: 64, height: 64 })),
      contentType: 'image/png',
    };
    const result = await iotaImageAdapter.generate(
      plannedCall({ size: '1:1', responseFormat: 'b64', watermark: false, images: [reference] }),
      contextFor(),
    );
    const [image] = result.images;
    expect(image).toMatchObject({ kind: 'bytes', contentType: 'image/jpeg' });
    expect(await dimensionsOf(image)).toMatchObject({ width: 2048, height: 2048 });
    expect(await lastReceivedBody()).toMatchObject({
      size: '2048x2048',
      response_format: 'b64_json',
      watermark: false,
      image: [`data:image/png;base64,${reference.bytes.toString('base64')}`],
    });
  });

  it('in group mode returns the images that succeeded and the blocked one as an item error', async () => {
    const result = await iotaImageAdapter.generate(
      plannedCall({ n: 3, size: '3:2' }),
      contextFor('block=output'),
    );
    expect(result.images).toHaveLength(2);
    for (const image of result.images)
      expect(await dimensionsOf(image)).toMatchObject({ width: 2496, height: 1664 });
    expect(result.itemErrors).toEqual([
      { index: 2, failure: expect.objectContaining({ kind: 'content_policy', retryable: false }) },
    ]);
    expect(result.usage).toEqual({ images: { count: 2, size: '2496x1664' } });
  });

  it.each([
    ['a blocked prompt', 'block=prompt', 'InputTextSensitiveContentDetected'],
    ['a blocked single image', 'block=output', 'OutputImageSensitiveContentDetected'],
  ])('turns %s into content_policy', async (_, directives, upstreamCode) => {
    const error = await failureOf(iotaImageAdapter.generate(plannedCall({}), contextFor(directives)));
    expect(error.failure).toMatchObject({
      kind: 'content_policy',
      retryable: false,
      httpStatus: 400,
      upstreamCode,
    });
  });

  it('turns a wrong key into auth and a scripted rate limit into rate_limit', async () => {
    const wrongKey = await failureOf(
      iotaImageAdapter.generate(plannedCall({}), contextFor('', 'not-the-key')),
    );
    expect(wrongKey.failure).toMatchObject({ kind: 'auth', httpStatus: 401 });
    const limited = await failureOf(
      iotaImageAdapter.generate(plannedCall({}), contextFor('error=rate_limit;retry_after=2')),
    );
    expect(limited.failure).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfterMs: 2000 });
  });
});
