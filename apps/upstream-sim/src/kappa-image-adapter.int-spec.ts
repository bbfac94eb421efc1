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
  DEFAULT_KAPPA_KEY,
  startSimulator,
  type JournalEntry,
  type RunningSimulator,
} from '@gateway/simulators';
import { imageSize } from 'image-size';
import { PNG } from 'pngjs';

/**
 * The kappa channel type's image capability, taken from the registry as the gateway takes it. It is
 * tested here, against the simulator over HTTP, because only an app may import both.
 */
function registeredAdapter(): SynchronousImageAdapter {
  const adapter = imageAdapterFor('kappa');
  if (adapter?.mode !== 'synchronous') throw new Error('kappa has no synchronous image capability');
  return adapter;
}
const kappaImageAdapter = registeredAdapter();

/** The call the rules plan for a request, addressed to the model as its upstream id. */
function plannedCall(fields: Partial<ImageRequest>): ImageGenerationCall {
  const request: ImageRequest = {
    model: 'kappa-3-pro-image-preview',
    prompt: 'a lighthouse at dusk',
    responseFormat: 'b64',
    images: [],
    ...fields,
  };
  const plan = kappaImageAdapter.plan(request, 'generate');
  if (!plan.ok) throw new Error(`refused: ${plan.message}`);
  return { ...plan.call, upstreamModel: request.model };
}

function bytesOf(image: GeneratedImage): Buffer {
  if (image.kind !== 'bytes') throw new Error('kappa answers inlineData, never URLs');
  return image.bytes;
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

describe('kappaImageAdapter against the kappa simulator', () => {
  let simulator: RunningSimulator;
  let http: ClosableUpstreamHttpClient;
  /** `directives` script the simulator through the channel's base URL, as a channel row can. */
  const contextFor = (directives = '', apiKey = DEFAULT_KAPPA_KEY): AdapterContext<PlainKeyCredentials> => ({
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

  // The simulator's sizes: 1:1 is 1024x1024, 16:9 1344x768, 9:16 768x1344 at 1K; 2K doubles both sides.
  it.each([
    ['kappa-3-pro-image-preview', { size: '16:9', resolution: '2K' }, '2K', 2688, 1536],
    ['kappa-3-pro-image-preview', { size: '1:1' }, '1K', 1024, 1024],
    ['kappa-2.5-flash-image-preview', { ratio: '9:16' }, '1K', 768, 1344],
    ['kappa-3.1-flash-image-preview', { size: '16:9', resolution: '2K' }, '1K', 1344, 768],
  ])('%s with %j returns a PNG at %s of %sx%s', async (model, fields, tier, width, height) => {
    const result = await kappaImageAdapter.generate(plannedCall({ model, ...fields }), contextFor());
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ kind: 'bytes', contentType: 'image/png' });
    expect(imageSize(bytesOf(result.images[0]))).toMatchObject({ type: 'png', width, height });
    expect(result.usage).toEqual({ images: { count: 1, size: tier } });
    expect(await lastReceivedBody()).toMatchObject({
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { imageSize: tier } },
    });
  });

  it('sends reference images as inlineData parts and returns n images from n calls', async () => {
    const reference = PNG.sync.write(new PNG({ width: 32, height: 32 }));
    const result = await kappaImageAdapter.generate(
      plannedCall({ n: 2, images: [{ kind: 'bytes', bytes: reference, contentType: 'image/png' }] }),
      contextFor(),
    );
    expect(result.images).toHaveLength(2);
    expect(result.usage.images?.count).toBe(2);
    expect(await lastReceivedBody()).toMatchObject({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'a lighthouse at dusk' },
            { inlineData: { mimeType: 'image/png', data: reference.toString('base64') } },
          ],
        },
      ],
    });
  });

  it.each([
    ['a blocked prompt', 'block=prompt', 'SAFETY'],
    ['an image withheld for safety', 'block=output;finish=IMAGE_SAFETY', 'IMAGE_SAFETY'],
    ['an output withheld for safety', 'block=output', 'SAFETY'],
  ])('turns %s into content_policy', async (_, directives, upstreamCode) => {
    const error = await failureOf(kappaImageAdapter.generate(plannedCall({}), contextFor(directives)));
    expect(error.failure).toMatchObject({ kind: 'content_policy', retryable: false, upstreamCode });
  });

  it('turns a wrong key into auth', async () => {
    const error = await failureOf(kappaImageAdapter.generate(plannedCall({}), contextFor('', 'not-the-key')));
    expect(error.failure).toMatchObject({ kind: 'auth', httpStatus: 400, upstreamCode: 'API_KEY_INVALID' });
  });
});
