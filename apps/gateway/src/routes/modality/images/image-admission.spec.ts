import type { ResolvedKey } from '@gateway/auth';
import type { ModelPrice } from '@gateway/billing';
import type { ChannelType, ImageRequest } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { admitImageRequest } from './image-admission';

const key: ResolvedKey = {
  id: 'key_1',
  accountId: 'acc_1',
  prefix: 'gk_test',
  allowedModels: null,
  expiresAt: null,
};
const price: ModelPrice = {
  model: 'draw-2',
  inputPerMillion: 0n,
  outputPerMillion: 0n,
  perCall: 500n,
  perImage: { '512x512': 10_000n, '1024x1024': 20_000n },
};

function channel(name: string, type: ChannelType): ChannelCandidate {
  return {
    id: `ch_${name}`,
    name,
    type,
    connection: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 'secret' }, settings: {} },
    upstreamModel: 'upstream-model',
    priority: 0,
    weight: 1,
  };
}

function request(fields: Partial<ImageRequest> = {}): ImageRequest {
  return { model: 'draw-2', prompt: 'A fox', responseFormat: 'url', images: [], ...fields };
}

function refusalOf(admit: () => unknown): GatewayError | undefined {
  try {
    admit();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  return undefined;
}

describe('admitImageRequest', () => {
  const compat = channel('compat', 'compat');

  it('holds n images at the planned tier plus the call, and plans the call for the channel type', () => {
    const admission = admitImageRequest(request({ n: 3, size: '512x512' }), 'generate', key, [compat], price);
    expect(admission.holdMicros).toBe(500n + 3n * 10_000n);
    expect(admission.candidates).toEqual([compat]);
    expect(admission.serves(compat)).toBe(true);
    expect(admission.planFor(compat)?.call).toMatchObject({
      n: 3,
      size: { kind: 'pixels', width: 512, height: 512 },
    });
  });

  it('reads n omitted or 0 as one image', () => {
    for (const n of [undefined, 0]) {
      expect(
        admitImageRequest(request({ n, size: '1024x1024' }), 'generate', key, [compat], price).holdMicros,
      ).toBe(20_500n);
    }
  });

  it('refuses a model the key may not use before anything else', () => {
    const limited = { ...key, allowedModels: new Set(['img-1']) };
    expect(refusalOf(() => admitImageRequest(request(), 'generate', limited, [compat], price))).toMatchObject(
      {
        code: 'model_not_allowed',
        param: 'model',
      },
    );
  });

  it('refuses a model without a price, or without a channel whose type makes images', () => {
    expect(refusalOf(() => admitImageRequest(request(), 'generate', key, [compat], undefined))?.code).toBe(
      'model_not_found',
    );
    expect(
      refusalOf(() => admitImageRequest(request(), 'generate', key, [channel('a', 'alpha')], price))?.code,
    ).toBe('model_not_found');
  });

  it('refuses a model of another kind as not found, naming its route, though an image channel offers it', () => {
    const tokens: ModelPrice = { ...price, inputPerMillion: 1n, outputPerMillion: 1n, perImage: undefined };
    expect(
      refusalOf(() => admitImageRequest(request({ model: 'chat-fast' }), 'generate', key, [compat], tokens)),
    ).toMatchObject({
      code: 'model_not_found',
      message: expect.stringMatching(/POST \/v1\/chat\/completions/),
    });
    const perSecond: ModelPrice = { ...price, perImage: undefined, perVideoSecond: { default: 1n } };
    expect(
      refusalOf(() => admitImageRequest(request({ model: 'delta-2' }), 'generate', key, [compat], perSecond)),
    ).toMatchObject({ code: 'model_not_found', message: expect.stringMatching(/POST \/v1\/videos/) });
  });

  it('refuses an edit where no channel type of the model has edits, naming the generations route', () => {
    const refusal = refusalOf(() =>
      admitImageRequest(
        request({ model: 'eta-iota-4-5-251128' }),
        'edit',
        key,
        [channel('eta', 'eta')],
        price,
      ),
    );
    expect(refusal).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(refusal?.message).toMatch(/makes no image edits: .*POST \/v1\/images\/generations/);
  });

  it("refuses an edit the same way where the model's family has none on a wire that has edits", () => {
    const refusal = refusalOf(() =>
      admitImageRequest(request({ model: 'draw-3' }), 'edit', key, [compat], {
        ...price,
        perImage: undefined,
      }),
    );
    expect(refusal).toMatchObject({ code: 'model_not_found', param: 'model' });
    expect(refusal?.message).toMatch(/'draw-3' makes no image edits/);
  });

  it("answers the family rules' refusal, naming the field and the allowed values", () => {
    const refusal = refusalOf(() =>
      admitImageRequest(request({ size: '300x300' }), 'generate', key, [compat], price),
    );
    expect(refusal).toMatchObject({ code: 'invalid_request', param: 'size' });
    expect(refusal?.message).toMatch(/256x256, 512x512, 1024x1024/);
  });

  it('refuses a tier the price does not name, listing the priced tiers', () => {
    const refusal = refusalOf(() =>
      admitImageRequest(request({ size: '256x256' }), 'generate', key, [compat], price),
    );
    expect(refusal).toMatchObject({ code: 'invalid_request', param: 'size' });
    expect(refusal?.message).toMatch(/priced tiers: 512x512, 1024x1024/);
  });

  it('prices every tier by the default when the table has one', () => {
    const withDefault = { ...price, perImage: { default: 7_000n } };
    expect(
      admitImageRequest(request({ size: '256x256' }), 'generate', key, [compat], withDefault).holdMicros,
    ).toBe(7_500n);
  });

  it('refuses a count whose hold would exceed the largest hold', () => {
    const costly = { ...price, perImage: { default: 10n ** 14n } };
    const refusal = refusalOf(() => admitImageRequest(request({ n: 2 }), 'generate', key, [compat], costly));
    expect(refusal).toMatchObject({ code: 'invalid_request', param: 'n' });
  });
});
