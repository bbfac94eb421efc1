import type { ResolvedKey } from '@gateway/auth';
import { MAX_HOLD_MICROS, type ModelPrice } from '@gateway/billing';
import type { ChannelType } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { toNativeIngress } from './native-ingress';
import { toOpenAiIngress } from './openai-ingress';
import { admitTextRequest } from './text-admission';

const key: ResolvedKey = {
  id: 'key_1',
  accountId: 'acc_1',
  prefix: 'gk_test',
  allowedModels: null,
  expiresAt: null,
};
const price: ModelPrice = {
  model: 'kappa-2.0-flash',
  inputPerMillion: 100_000n,
  outputPerMillion: 400_000n,
  perCall: 0n,
};
const identity = { responseId: 'chatcmpl-1', createdSeconds: 1 };

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

function refusalOf(admit: () => unknown): GatewayError | undefined {
  try {
    admit();
  } catch (error) {
    if (error instanceof GatewayError) return error;
  }
  return undefined;
}

function nativeIngress(body: Record<string, unknown>, model = 'kappa-2.0-flash') {
  const raw = Buffer.from(JSON.stringify(body));
  return toNativeIngress(`${model}:generateContent`, undefined, body, raw);
}

const plain = { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] };
// The OpenAI-style dialect has no cached contents: a translation of this request must fail.
const cached = { ...plain, cachedContent: 'cachedContents/abc' };

describe('admitTextRequest', () => {
  it("bridges to each channel's dialect: the request as it is for its own, translated for the other", () => {
    const native = channel('native', 'kappa');
    const openai = channel('openai', 'compat');
    const admission = admitTextRequest(nativeIngress(plain), key, [native, openai], price, identity);

    expect(admission.candidates).toEqual([native, openai]);
    expect(admission.admit(native)?.bridge.channelDialect).toBe('native');
    const translated = admission.admit(openai);
    expect(translated?.bridge.channelDialect).toBe('openai');
    expect(translated?.bridge.toCall('chat-fast').request).toMatchObject({
      model: 'chat-fast',
      messages: [{ role: 'user', content: 'hello' }],
    });
  });

  it('admits a request another dialect cannot carry when a channel of its own dialect serves it', () => {
    const native = channel('native', 'kappa');
    const openai = channel('openai', 'compat');
    const admission = admitTextRequest(nativeIngress(cached), key, [openai, native], price, identity);

    expect(admission.serves(openai)).toBe(false);
    expect(admission.admit(openai)).toBeUndefined();
    expect(admission.serves(native)).toBe(true);
    expect(admission.admit(native)?.bridge.toCall('kappa-2.0-flash').request).toMatchObject(cached);
  });

  it('refuses before any hold, naming the field, when no channel can carry the request', () => {
    const admit = () =>
      admitTextRequest(nativeIngress(cached), key, [channel('openai', 'compat')], price, identity);

    expect(admit).toThrow(GatewayError);
    expect(admit).toThrow(/cachedContent/);
  });

  it('refuses a model no text channel serves, and a model without a price', () => {
    expect(() => admitTextRequest(nativeIngress(plain), key, [], price, identity)).toThrow(
      /does not exist or is not available/,
    );
    expect(() =>
      admitTextRequest(nativeIngress(plain), key, [channel('native', 'kappa')], undefined, identity),
    ).toThrow(/does not exist or is not available/);
  });

  it('refuses a model of another kind as not found, naming its route, though a text channel offers it', () => {
    const compat = [channel('openai', 'compat')];
    const perImage = { ...price, inputPerMillion: 0n, outputPerMillion: 0n, perImage: { default: 40_000n } };
    expect(
      refusalOf(() => admitTextRequest(nativeIngress(plain, 'img-1'), key, compat, perImage, identity)),
    ).toMatchObject({
      code: 'model_not_found',
      message: expect.stringMatching(/POST \/v1\/images\/generations/),
    });
    const perSecond = {
      ...price,
      inputPerMillion: 0n,
      outputPerMillion: 0n,
      perVideoSecond: { default: 1n },
    };
    expect(
      refusalOf(() => admitTextRequest(nativeIngress(plain, 'delta-2'), key, compat, perSecond, identity)),
    ).toMatchObject({ code: 'model_not_found', message: expect.stringMatching(/POST \/v1\/videos/) });
  });

  it('refuses a model the key may not use', () => {
    const limited = { ...key, allowedModels: new Set(['chat-fast']) };
    expect(() =>
      admitTextRequest(nativeIngress(plain), limited, [channel('native', 'kappa')], price, identity),
    ).toThrow(/may not use the model 'kappa-2.0-flash'/);
  });

  describe('the hold', () => {
    const INT32_MAX = 2 ** 31 - 1;

    it('is exact in bigint for huge caps and counts, and refused above the largest hold naming the fields', () => {
      const native = { ...nativeIngress(plain), maxOutputTokens: INT32_MAX, candidateCount: INT32_MAX };
      const admit = () => admitTextRequest(native, key, [channel('native', 'kappa')], price, identity);

      expect(admit).toThrow(/generationConfig\.maxOutputTokens × generationConfig\.candidateCount/);
      expect(refusalOf(admit)).toMatchObject({ httpStatus: 400, param: 'generationConfig.maxOutputTokens' });
    });

    it('names the OpenAI-style fields the client used', () => {
      const body = { model: 'kappa-2.0-flash', messages: [{ role: 'user', content: 'hi' }] };
      const openai = (fields: Record<string, unknown>) => ({
        ...toOpenAiIngress({ ...body, ...fields }, Buffer.from(JSON.stringify(body))),
        maxOutputTokens: INT32_MAX,
        candidateCount: INT32_MAX,
      });
      const compat = [channel('openai', 'compat')];

      expect(() => admitTextRequest(openai({}), key, compat, price, identity)).toThrow(/max_tokens × n/);
      expect(() =>
        admitTextRequest(openai({ max_completion_tokens: 5 }), key, compat, price, identity),
      ).toThrow(/max_completion_tokens × n/);
    });

    it('admits the largest hold and counts every candidate', () => {
      // 0.4 micros per output token: a hold of exactly MAX_HOLD_MICROS is admitted, one more is not.
      const tokensAtMaximum = Number((MAX_HOLD_MICROS * 1_000_000n) / price.outputPerMillion);
      const atMaximum = {
        ...nativeIngress(plain),
        promptBytes: 0,
        maxOutputTokens: tokensAtMaximum / 5,
        candidateCount: 5,
      };
      const natives = [channel('native', 'kappa')];

      expect(admitTextRequest(atMaximum, key, natives, price, identity).holdMicros).toBe(MAX_HOLD_MICROS);
      expect(() =>
        admitTextRequest({ ...atMaximum, candidateCount: 6 }, key, natives, price, identity),
      ).toThrow(/more output than one request may hold/);
    });
  });
});
