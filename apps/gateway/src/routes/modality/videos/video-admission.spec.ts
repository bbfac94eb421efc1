import type { ResolvedKey } from '@gateway/auth';
import type { ModelPrice } from '@gateway/billing';
import type { VideoCall, VideoPlan, VideoRequest, VideoRules } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { refusalOf } from '../../../../test/gateway-refusal';
import { admitVideo, type VideoRouting } from './video-admission';
import type { VideoRequestDraft } from './video-request.mapper';

const KEY: ResolvedKey = { id: 'key', accountId: 'acc', prefix: 'gk_', allowedModels: null, expiresAt: null };

/** Rules of a made-up family: seconds 4 or 8 (default 4), resolution lower-cased from the request. */
const familyRules: VideoRules = {
  servesVideoModel: (model) => model.startsWith('fam-'),
  planVideo: (request: VideoRequest): VideoPlan => {
    const seconds = request.seconds ?? 4;
    if (seconds !== 4 && seconds !== 8)
      return { ok: false, param: 'seconds', message: 'seconds must be 4 or 8' };
    const call: VideoCall = {
      kind: 'video',
      family: 'fam',
      mode: request.remixOf === undefined ? 'text' : 'remix',
      prompt: request.prompt ?? '',
      seconds,
      resolution: (request.resolution ?? request.dimensions['resolution'] ?? '720p').toLowerCase(),
      size: request.size ?? null,
      aspectRatio: null,
      images: [],
      clips: [],
      subjects: [],
      metadata: null,
      extras: {},
      remixOf: request.remixOf ?? null,
    };
    return { ok: true, call, warnings: seconds === 4 && request.seconds === undefined ? ['seconds: 4'] : [] };
  },
};

function channel(id: string, model: string, priority = 0): ChannelCandidate {
  return {
    id,
    name: id,
    type: 'compat',
    connection: { baseUrl: 'http://upstream.test', credentials: {}, settings: {} },
    upstreamModel: model,
    priority,
    weight: 1,
  } as ChannelCandidate;
}

const PRICES: Record<string, ModelPrice> = {
  'fam-1': price({ '720p': 1_000n, '1080p': 3_000n }, 500n),
  'fam-1-1080p-offpeak': price({ default: 2_000n }, 0n),
  'fam-2': price({ '720p': 1_000n }, 0n),
};

function price(perVideoSecond: Record<string, bigint>, perCall: bigint): ModelPrice {
  return { model: 'm', inputPerMillion: 0n, outputPerMillion: 0n, perCall, perVideoSecond };
}

function routing(overrides: Partial<VideoRouting> = {}): VideoRouting {
  const channels: Record<string, ChannelCandidate[]> = {
    'fam-1': [channel('ch-a', 'fam-1', 5), channel('ch-b', 'fam-1', 1)],
    'fam-2': [channel('ch-a', 'fam-2')],
    'other-1': [channel('ch-c', 'other-1')],
  };
  return {
    candidatesFor: (model) => channels[model] ?? [],
    priceFor: (model) => PRICES[model],
    circuitClosed: () => true,
    rulesFor: () => familyRules,
    isFamilyModel: () => false,
    ...overrides,
  };
}

function draft(modelName: string, fields: Partial<VideoRequestDraft['fields']> = {}): VideoRequestDraft {
  return {
    modelName,
    fields: { style: 'openai', prompt: 'x', images: [], clips: [], subjects: [], extras: {}, ...fields },
  };
}

describe('admitVideo', () => {
  it('pins the first channel in routing order and holds per call + seconds x the price of a second', () => {
    const admitted = admitVideo(draft('fam-1', { seconds: 8, resolution: '1080P' }), KEY, routing());
    expect(admitted.model).toBe('fam-1');
    expect(admitted.channel.id).toBe('ch-a');
    expect(admitted.call).toMatchObject({ seconds: 8, resolution: '1080p' });
    expect(admitted.price).toEqual({
      resolution: '1080p',
      perCallMicros: 500n,
      perSecondMicros: 3_000n,
      heldSeconds: 8,
    });
    expect(admitted.holdMicros).toBe(500n + 8n * 3_000n);
  });

  it('prefers a channel whose circuit is closed', () => {
    const admitted = admitVideo(draft('fam-1'), KEY, routing({ circuitClosed: (id) => id === 'ch-b' }));
    expect(admitted.channel.id).toBe('ch-b');
    expect(admitted.warnings).toEqual(['seconds: 4']);
  });

  it('resolves a combined billing name into its base and dimensions, priced by its own row when it has one', () => {
    const own = admitVideo(draft('fam-1-1080p-offpeak'), KEY, routing());
    expect(own.model).toBe('fam-1');
    expect(own.call.resolution).toBe('1080p');
    expect(own.holdMicros).toBe(4n * 2_000n);

    const byBase = admitVideo(draft('fam-1-1080p'), KEY, routing());
    expect(byBase.model).toBe('fam-1');
    expect(byBase.holdMicros).toBe(500n + 4n * 3_000n);
  });

  it('never reads a family model no channel offers as a combined name of an offered one', () => {
    expect(admitVideo(draft('fam-1-pro'), KEY, routing()).model).toBe('fam-1');
    const knowsFam1Pro = routing({ isFamilyModel: (model) => model === 'fam-1-pro' });
    expect(refusalOf(() => admitVideo(draft('fam-1-pro'), KEY, knowsFam1Pro)).code).toBe('model_not_found');
  });

  it('lets a key limited to the base model use its combined names, and refuses others', () => {
    const limited = { ...KEY, allowedModels: new Set(['fam-1']) };
    expect(admitVideo(draft('fam-1-1080p'), limited, routing()).model).toBe('fam-1');
    expect(refusalOf(() => admitVideo(draft('fam-2'), limited, routing())).code).toBe('model_not_allowed');
  });

  it.each([
    ['a model no channel serves as video', 'other-1', 'model_not_found', 'model'],
    ['an unknown billing word', 'fam-1-turbo', 'model_not_found', 'model'],
    ['an unpriced model', 'fam-3', 'model_not_found', 'model'],
  ])('refuses %s', (_case, model, code, param) => {
    const refusal = refusalOf(() =>
      admitVideo(
        draft(model),
        KEY,
        routing({ candidatesFor: (m) => (m === 'fam-3' ? [channel('x', m)] : routing().candidatesFor(m)) }),
      ),
    );
    expect([refusal.code, refusal.param]).toEqual([code, param]);
  });

  it('answers the rules’ refusal as a 400 naming the field', () => {
    const refusal = refusalOf(() => admitVideo(draft('fam-1', { seconds: 5 }), KEY, routing()));
    expect([refusal.httpStatus, refusal.param, refusal.message]).toEqual([
      400,
      'seconds',
      'seconds must be 4 or 8',
    ]);
  });

  it('refuses a resolution the model is not priced at, naming where it came from', () => {
    const fromSize = refusalOf(() =>
      admitVideo(draft('fam-2', { resolution: '1080p', size: '1080p' }), KEY, routing()),
    );
    expect([fromSize.param, fromSize.message]).toEqual([
      'size',
      "The model 'fam-2' has no price for 1080p video; priced resolutions: 720p.",
    ]);
    const fromMetadata = refusalOf(() =>
      admitVideo(draft('fam-2', { resolution: '1080P', size: '720p' }), KEY, routing()),
    );
    expect(fromMetadata.param).toBe('metadata.output_config.resolution');
  });

  it('pins a remix to the source’s channel, and refuses one the rules do not plan as a remix', () => {
    const remix = draft('fam-1', { remixOf: { id: 'up_1' } });
    expect(admitVideo(remix, KEY, routing(), { channelId: 'ch-b' }).channel.id).toBe('ch-b');
    expect(refusalOf(() => admitVideo(remix, KEY, routing(), { channelId: 'ch-gone' })).param).toBe('model');
    const plainRules: VideoRules = {
      ...familyRules,
      planVideo: (request) => familyRules.planVideo({ ...request, remixOf: undefined }),
    };
    const refusal = refusalOf(() =>
      admitVideo(remix, KEY, routing({ rulesFor: () => plainRules }), { channelId: 'ch-a' }),
    );
    expect(refusal.message).toBe("The model 'fam-1' cannot remix a video.");
  });
  describe('a model of another kind, family or price (issue 31)', () => {
    const withModel = (model: string, modelPrice: ModelPrice, videoRules = true) =>
      routing({
        candidatesFor: (m) => (m === model ? [channel('ch-z', m)] : routing().candidatesFor(m)),
        priceFor: (m) => (m === model ? modelPrice : PRICES[m]),
        rulesFor: () => (videoRules ? familyRules : undefined),
      });
    const priced = (fields: Partial<ModelPrice>): ModelPrice => ({
      model: 'm',
      inputPerMillion: 0n,
      outputPerMillion: 0n,
      perCall: 0n,
      ...fields,
    });

    it('refuses an image or text model no video channel serves, naming the route that serves it', () => {
      const image = refusalOf(() =>
        admitVideo(draft('pic-1'), KEY, withModel('pic-1', priced({ perImage: { default: 1n } }), false)),
      );
      expect([image.httpStatus, image.code, image.message]).toEqual([
        404,
        'model_not_found',
        "The model 'pic-1' is an image model, not a video model: it is served by POST /v1/images/generations.",
      ]);
      const text = refusalOf(() =>
        admitVideo(draft('talk-1'), KEY, withModel('talk-1', priced({ inputPerMillion: 1n }), false)),
      );
      expect(text.message).toMatch(/is a text model, not a video model: it is served by POST \/v1\/chat/);
    });

    it('refuses a video model whose price bills nothing per second, and serves a flat price', () => {
      const perImage = refusalOf(() =>
        admitVideo(draft('fam-9'), KEY, withModel('fam-9', priced({ perImage: { default: 1n } }))),
      );
      expect([perImage.httpStatus, perImage.code, perImage.param]).toEqual([404, 'model_not_found', 'model']);
      expect(perImage.message).toContain('perVideoSecond');
      const flat = admitVideo(draft('fam-9'), KEY, withModel('fam-9', priced({ perCall: 700n })));
      expect(flat.holdMicros).toBe(700n);
    });

    it('refuses on a family route a model of another family, naming the unified route', () => {
      const scope = {
        route: 'POST /fam/create',
        servesModel: (m: string) => m === 'fam-2',
        billedBy: ['videoSecond'] as const,
      };
      const refusal = refusalOf(() => admitVideo(draft('fam-1'), KEY, routing(), undefined, scope));
      expect([refusal.httpStatus, refusal.message]).toEqual([
        404,
        "The model 'fam-1' is a video model: it is created with POST /v1/videos.",
      ]);
      expect(admitVideo(draft('fam-2'), KEY, routing(), undefined, scope).model).toBe('fam-2');
    });
  });
});
