import type { ResolvedKey } from '@gateway/auth';
import type { ModelPrice } from '@gateway/billing';
import type { ChannelType } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '../errors/gateway-error';
import { toNativeIngress } from './native-ingress';
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
    baseUrl: 'http://127.0.0.1:9',
    secret: 'secret',
    upstreamModel: 'upstream-model',
    priority: 0,
    weight: 1,
  };
}

function nativeIngress(body: Record<string, unknown>) {
  const raw = Buffer.from(JSON.stringify(body));
  return toNativeIngress('kappa-2.0-flash:generateContent', undefined, body, raw);
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

  it('refuses a model the key may not use', () => {
    const limited = { ...key, allowedModels: new Set(['chat-fast']) };
    expect(() =>
      admitTextRequest(nativeIngress(plain), limited, [channel('native', 'kappa')], price, identity),
    ).toThrow(/may not use the model 'kappa-2.0-flash'/);
  });
});
