import type { ModelPrice } from '@gateway/billing';
import type { VideoCall } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import type { AdmittedVideo } from '../../../modality/videos/video-admission';
import { priceByTokens } from './theta-video-pricing';

const call = (fields: Partial<VideoCall>): VideoCall => ({
  kind: 'video',
  family: 'theta',
  mode: 'text',
  prompt: 'a kite',
  seconds: 5,
  resolution: '720p',
  size: null,
  aspectRatio: '16:9',
  images: [],
  clips: [],
  subjects: [],
  metadata: null,
  extras: {},
  remixOf: null,
  ...fields,
});

const admitted = (fields: Partial<VideoCall> = {}): AdmittedVideo => ({
  model: 'eta-theta-2-0-260128',
  channel: { id: 'chan' } as ChannelCandidate,
  call: call(fields),
  warnings: [],
  price: { resolution: '720p', perCallMicros: 1_000n, perSecondMicros: 0n, heldSeconds: 5 },
  holdMicros: 1_000n,
});

const price = (fields: Partial<ModelPrice>): ModelPrice => ({
  model: 'eta-theta-2-0-260128',
  inputPerMillion: 0n,
  outputPerMillion: 0n,
  perCall: 1_000n,
  ...fields,
});

describe('priceByTokens', () => {
  it('holds per call + the estimated output tokens at the output price, rounded up', () => {
    const priced = priceByTokens(admitted(), price({ outputPerMillion: 2_000_001n }));
    // 108 000 tokens × 2 000 001 micros / 1 000 000 = 216 000.108, rounded up.
    expect(priced.holdMicros).toBe(1_000n + 216_001n);
    expect(priced.price).toEqual({
      resolution: '720p',
      perCallMicros: 1_000n,
      perSecondMicros: 0n,
      heldSeconds: 5,
      tokens: { inputPerMillionMicros: 0n, outputPerMillionMicros: 2_000_001n, heldTokens: 108_000 },
    });
  });

  it('keeps the per-second pricing of a row that prices no tokens', () => {
    const before = admitted();
    expect(priceByTokens(before, price({ perVideoSecond: { default: 10n } }))).toBe(before);
    expect(priceByTokens(before, undefined)).toBe(before);
  });

  it('refuses a hold beyond the largest the ledger takes, naming the duration', () => {
    expect(() => priceByTokens(admitted({ seconds: 15 }), price({ outputPerMillion: 10n ** 18n }))).toThrow(
      expect.objectContaining({ code: 'invalid_request', options: { param: 'metadata.duration' } }),
    );
  });
});
