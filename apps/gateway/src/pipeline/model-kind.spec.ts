import type { ModelPrice } from '@gateway/billing';
import type { ChannelType } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { assertModelKind, modelKindsOf, type SynchronousKind } from './model-kind';

function channel(type: ChannelType): ChannelCandidate {
  return {
    id: `ch_${type}`,
    name: type,
    type,
    connection: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 'secret' }, settings: {} },
    upstreamModel: 'upstream-model',
    priority: 0,
    weight: 1,
  };
}

function priced(fields: Partial<ModelPrice>): ModelPrice {
  return { model: 'm', inputPerMillion: 0n, outputPerMillion: 0n, perCall: 0n, ...fields };
}

const TOKENS = priced({ inputPerMillion: 100_000n, outputPerMillion: 400_000n });
const PER_IMAGE = priced({ perImage: { default: 40_000n } });
const PER_SECOND = priced({ perVideoSecond: { default: 50_000n } });
const FLAT = priced({ perCall: 1_000n });

function refusalOf(
  kind: SynchronousKind,
  model: string,
  channels: ChannelCandidate[],
  price: ModelPrice,
): GatewayError | undefined {
  try {
    assertModelKind(kind, model, channels, price);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  return undefined;
}

describe('modelKindsOf', () => {
  it.each([
    ['a token price', 'chat-fast', [channel('compat')], TOKENS, ['text']],
    ['a per-image price', 'img-1', [channel('compat')], PER_IMAGE, ['image']],
    [
      'tokens and a per-image table (the kappa image models)',
      'kappa-3-pro-image-preview',
      [channel('kappa')],
      { ...TOKENS, perImage: { default: 39_000n } },
      ['text', 'image'],
    ],
    [
      'a per-second price (a combined billing name)',
      'gamma-2.6-x-1080p',
      [channel('gamma')],
      PER_SECOND,
      ['video'],
    ],
    ['a flat price, which says nothing', 'per-call', [channel('compat')], FLAT, []],
    ['a video family, whatever its price', 'delta-2', [channel('compat')], TOKENS, ['video']],
    ['theta 2.0, priced by tokens', 'eta-theta-2-0-260128', [channel('eta')], TOKENS, ['video']],
    ['a model of the music channel type', 'lambda-v5', [channel('lambda')], FLAT, ['music']],
  ])('reads %s', (_case, model, channels, price, kinds) => {
    expect(modelKindsOf(model, channels, price)).toEqual(kinds);
  });
});

describe('assertModelKind', () => {
  it('serves a model on the routes of its kinds, and a flat price on any route', () => {
    const kappaImage = { ...TOKENS, perImage: { default: 39_000n } };
    for (const kind of ['text', 'image'] as const) {
      expect(refusalOf(kind, 'kappa-3-pro-image-preview', [channel('kappa')], kappaImage)).toBeUndefined();
      expect(refusalOf(kind, 'per-call', [channel('compat')], FLAT)).toBeUndefined();
    }
    expect(refusalOf('text', 'chat-fast', [channel('compat')], TOKENS)).toBeUndefined();
    expect(refusalOf('image', 'img-1', [channel('compat')], PER_IMAGE)).toBeUndefined();
  });

  it.each([
    [
      'text',
      'img-1',
      [channel('compat')],
      PER_IMAGE,
      'is an image model, not a text model: it is served by POST /v1/images/generations',
    ],
    [
      'image',
      'chat-fast',
      [channel('compat')],
      TOKENS,
      'is a text model, not an image model: it is served by POST /v1/chat/completions and POST /v1beta/models/chat-fast:generateContent',
    ],
    [
      'image',
      'delta-2',
      [channel('compat')],
      PER_SECOND,
      'is a video model: it is created with POST /v1/videos',
    ],
    [
      'text',
      'delta-2',
      [channel('compat')],
      { ...PER_SECOND, perCall: 5n },
      'is a video model: it is created with POST /v1/videos',
    ],
    [
      'image',
      'eta-theta-2-0-260128',
      [channel('eta')],
      { ...TOKENS, perCall: 10_000n },
      'is a video model: it is created with POST /v1/video/generations',
    ],
    [
      'image',
      'gamma-2.6-x-1080p',
      [channel('gamma')],
      { ...PER_SECOND, perCall: 5n },
      'is a video model: it is created with POST /v1/videos',
    ],
    [
      'text',
      'lambda-v5',
      [channel('lambda')],
      FLAT,
      'is a music model: it is created with POST /lambda/submit/music',
    ],
  ] as const)(
    'refuses on the %s route %s as not found, naming its route',
    (kind, model, channels, price, where) => {
      expect(refusalOf(kind, model, [...channels], price)).toMatchObject({
        code: 'model_not_found',
        param: 'model',
        message: `The model '${model}' ${where}.`,
      });
    },
  );
});
