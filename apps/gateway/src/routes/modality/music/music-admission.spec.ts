import type { ResolvedKey } from '@gateway/auth';
import type { ModelPrice } from '@gateway/billing';
import type { ChannelCandidate } from '@gateway/routing';
import { refusalOf } from '../../../../test/gateway-refusal';
import { admitMusic, type MusicRouting } from './music-admission';
import type { MusicSubmission } from './music-submission';

const KEY: ResolvedKey = { id: 'key', accountId: 'acc', prefix: 'gk_', allowedModels: null, expiresAt: null };

function channel(id: string, type = 'lambda', priority = 0): ChannelCandidate {
  return {
    id,
    name: id,
    type,
    connection: { baseUrl: 'http://upstream.test', credentials: {}, settings: {} },
    upstreamModel: 'lambda-v4',
    priority,
    weight: 1,
  } as ChannelCandidate;
}

const price = (perCall: bigint): ModelPrice => ({
  model: 'm',
  inputPerMillion: 0n,
  outputPerMillion: 0n,
  perCall,
});

function routing(overrides: Partial<MusicRouting> = {}): MusicRouting {
  const prices: Record<string, ModelPrice> = {
    'lambda-v4': price(50_000n),
    'lambda-v4:lyrics': price(5_000n),
  };
  return {
    candidatesFor: (model) => (model === 'lambda-v4' ? [channel('a'), channel('b', 'compat')] : []),
    priceFor: (model) => prices[model],
    circuitClosed: () => true,
    runsTasks: () => true,
    ...overrides,
  };
}

const submission = (action: 'music' | 'lyrics', model = 'lambda-v4'): MusicSubmission => ({
  action,
  model,
  fields: { prompt: 'x' },
});

describe('admitMusic', () => {
  it('holds the perCall of the model, or of {model}:{action} where the operator priced the action apart', () => {
    expect(admitMusic(submission('music'), KEY, routing())).toMatchObject({
      priceName: 'lambda-v4',
      holdMicros: 50_000n,
      channel: { id: 'a' },
    });
    expect(admitMusic(submission('lyrics'), KEY, routing())).toMatchObject({
      priceName: 'lambda-v4:lyrics',
      holdMicros: 5_000n,
    });
  });

  it('routes to lambda channels only, preferring a closed circuit', () => {
    const candidates = [
      channel('open', 'lambda', 5),
      channel('closed', 'lambda', 5),
      channel('c', 'compat', 9),
    ];
    const admitted = admitMusic(
      submission('music'),
      KEY,
      routing({ candidatesFor: () => candidates, circuitClosed: (id) => id === 'closed' }),
    );
    expect(admitted.channel.id).toBe('closed');
  });

  it('refuses a model no lambda channel offers, or one without a price, as model_not_found', () => {
    expect(refusalOf(() => admitMusic(submission('music', 'lambda-v5'), KEY, routing())).code).toBe(
      'model_not_found',
    );
    expect(
      refusalOf(() => admitMusic(submission('music'), KEY, routing({ priceFor: () => undefined }))).code,
    ).toBe('model_not_found');
  });

  it('refuses a model the key may not use, and pins a continuation to its channel', () => {
    const limited = { ...KEY, allowedModels: new Set(['lambda-v3-0']) };
    expect(refusalOf(() => admitMusic(submission('music'), limited, routing())).code).toBe(
      'model_not_allowed',
    );
    expect(
      refusalOf(() => admitMusic(submission('music'), KEY, routing(), { channelId: 'gone' })).param,
    ).toBe('mv');
    expect(admitMusic(submission('music'), KEY, routing(), { channelId: 'a' }).channel.id).toBe('a');
  });
});

describe('admitMusic: a model of another kind or price (issue 31)', () => {
  it('refuses a text model as not found, naming the route that serves it', () => {
    const chat = routing({
      candidatesFor: (model) => (model === 'chat-1' ? [channel('c', 'compat')] : []),
      priceFor: (model) => (model === 'chat-1' ? { ...price(0n), inputPerMillion: 1n } : undefined),
    });
    const refusal = refusalOf(() => admitMusic(submission('music', 'chat-1'), KEY, chat));
    expect([refusal.httpStatus, refusal.code, refusal.message]).toEqual([
      404,
      'model_not_found',
      "The model 'chat-1' is a text model, not a music model: it is served by POST /v1/chat/completions " +
        'and POST /v1beta/models/chat-1:generateContent.',
    ]);
  });

  it('refuses a lambda model whose price bills nothing per task', () => {
    const perSecond = routing({ priceFor: () => ({ ...price(0n), perVideoSecond: { default: 1n } }) });
    const refusal = refusalOf(() => admitMusic(submission('music'), KEY, perSecond));
    expect([refusal.httpStatus, refusal.code]).toEqual([404, 'model_not_found']);
    expect(refusal.message).toContain('perCall');
  });
});
