import {
  betaChannelType,
  betaImageAdapter,
  betaTaskAdapter,
  betaVideoAdapter,
} from '@gateway/providers-beta';
import { alphaChannelType, alphaTaskAdapter, alphaVideoAdapter } from '@gateway/providers-alpha';
import {
  compatChannelType,
  compatTextAdapter,
  compatVideoAdapter,
  compatVideoTaskAdapter,
} from '@gateway/providers-compat';
import {
  NoChannelSettings,
  parseAccessKeyPair,
  type ChannelTypeDefinition,
  type TaskAdapter,
} from '@gateway/providers-core';
import {
  etaChannelType,
  iotaImageAdapter,
  thetaTaskAdapter,
  thetaVideoAdapter,
} from '@gateway/providers-eta';
import { gammaChannelType, gammaTaskAdapter, gammaVideoAdapter } from '@gateway/providers-gamma';
import { kappaChannelType, kappaImageAdapter, kappaTextAdapter } from '@gateway/providers-kappa';
import { lambdaTaskAdapter } from '@gateway/providers-lambda';
import { muChannelType, muTaskAdapter, muVideoRules } from '@gateway/providers-mu';
import { omegaChannelType, omegaTaskAdapter, omegaVideoRules } from '@gateway/providers-omega';
import { indexChannelTypeDefinitions } from './channel-type-definitions.check';
import {
  channelTypeDefinition,
  imageAdapterFor,
  taskAdapterFor,
  taskAdaptersByType,
  textAdapterFor,
  videoAdapterFor,
} from './channel-type.lookup';
import { CHANNEL_TYPE_DEFINITIONS } from './channel-type.registry';

const taskAdapter: TaskAdapter = {
  submit: async () => ({ handle: 'upstream-1' }),
  poll: async () => ({ state: 'pending' }),
};

/** A definition as a registry line could hold it, typed loosely so that the boot check is what refuses it. */
function definition(fields: Record<string, unknown>): ChannelTypeDefinition {
  return {
    type: 'beta',
    parseCredentials: parseAccessKeyPair,
    settings: NoChannelSettings,
    capabilities: { task: taskAdapter },
    ...fields,
  } as unknown as ChannelTypeDefinition;
}

const bootProblemsOf = (definitions: ChannelTypeDefinition[]): string => {
  try {
    indexChannelTypeDefinitions(definitions);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no problem';
};

describe('channel type registry', () => {
  it('serves the native dialect on kappa and the OpenAI-style dialect on compat', () => {
    expect(textAdapterFor('kappa')).toBe(kappaTextAdapter);
    expect(textAdapterFor('kappa')?.dialect).toBe('native');
    expect(textAdapterFor('compat')).toBe(compatTextAdapter);
    expect(textAdapterFor('compat')?.dialect).toBe('openai');
    expect(channelTypeDefinition('kappa')).toBe(kappaChannelType);
    expect(channelTypeDefinition('compat')).toBe(compatChannelType);
  });

  it('knows unknown names as having no definition and no adapter', () => {
    for (const type of ['nonesuch', 'lambda-v4']) {
      expect(channelTypeDefinition(type)).toBeUndefined();
      expect(textAdapterFor(type)).toBeUndefined();
      expect(taskAdapterFor(type)).toBeUndefined();
    }
  });

  it('serves images synchronously on kappa and eta, and theta videos through eta tasks', () => {
    expect(imageAdapterFor('kappa')).toBe(kappaImageAdapter);
    expect(imageAdapterFor('eta')).toBe(iotaImageAdapter);
    expect(channelTypeDefinition('eta')).toBe(etaChannelType);
    expect(imageAdapterFor('eta')?.mode).toBe('synchronous');
    expect(taskAdapterFor('compat')).toBe(compatVideoTaskAdapter);
    expect(videoAdapterFor('compat')).toBe(compatVideoAdapter);
    expect(taskAdapterFor('eta')).toBe(thetaTaskAdapter);
    expect(videoAdapterFor('eta')).toBe(thetaVideoAdapter);
    expect([...taskAdaptersByType().keys()]).toEqual([
      'compat',
      'eta',
      'beta',
      'alpha',
      'mu',
      'omega',
      'gamma',
      'lambda',
    ]);
    expect(taskAdapterFor('lambda')).toBe(lambdaTaskAdapter);
  });

  it('serves alpha videos through its task capability, with a plain key', () => {
    expect(channelTypeDefinition('alpha')).toBe(alphaChannelType);
    expect(taskAdapterFor('alpha')).toBe(alphaTaskAdapter);
    expect(videoAdapterFor('alpha')).toBe(alphaVideoAdapter);
    expect(imageAdapterFor('alpha')).toBeUndefined();
    expect(channelTypeDefinition('alpha')?.parseCredentials('key-1')).toEqual({
      ok: true,
      credentials: { apiKey: 'key-1' },
    });
  });

  it('serves mu and omega videos through their task capability, with a plain Bearer key', () => {
    expect(channelTypeDefinition('mu')).toBe(muChannelType);
    expect(taskAdapterFor('mu')).toBe(muTaskAdapter);
    expect(videoAdapterFor('mu')).toBe(muVideoRules);
    expect(channelTypeDefinition('omega')).toBe(omegaChannelType);
    expect(taskAdapterFor('omega')).toBe(omegaTaskAdapter);
    expect(videoAdapterFor('omega')).toBe(omegaVideoRules);
    for (const type of ['mu', 'omega']) {
      expect(imageAdapterFor(type)).toBeUndefined();
      expect(channelTypeDefinition(type)?.parseCredentials('key-1')).toEqual({
        ok: true,
        credentials: { apiKey: 'key-1' },
      });
    }
  });

  it('serves gamma videos through its idempotent task capability, with its composite key', () => {
    expect(channelTypeDefinition('gamma')).toBe(gammaChannelType);
    expect(taskAdapterFor('gamma')).toBe(gammaTaskAdapter);
    expect(taskAdapterFor('gamma')?.idempotentSubmit).toBe(true);
    expect(videoAdapterFor('gamma')).toBe(gammaVideoAdapter);
    expect(channelTypeDefinition('gamma')?.parseCredentials('1500000000|sid|skey|north-2')).toMatchObject({
      ok: true,
      credentials: { subAppId: '1500000000', region: 'north-2' },
    });
  });

  it('serves beta images through its task capability, and parses both forms of its key', () => {
    expect(channelTypeDefinition('beta')).toBe(betaChannelType);
    expect(imageAdapterFor('beta')).toBe(betaImageAdapter);
    expect(imageAdapterFor('beta')?.mode).toBe('task');
    expect(taskAdapterFor('beta')).toBe(betaTaskAdapter);
    expect(videoAdapterFor('beta')).toBe(betaVideoAdapter);
    expect(textAdapterFor('beta')).toBeUndefined();
    const parse = channelTypeDefinition('beta')?.parseCredentials;
    expect(parse?.('AKLTexample0123|SecretKey4567')).toMatchObject({
      ok: true,
      credentials: { kind: 'signed' },
    });
    expect(parse?.('sk-relay-0123456789')).toMatchObject({ ok: true, credentials: { kind: 'relay' } });
  });

  it('parses the plain keys of kappa and compat channels', () => {
    expect(channelTypeDefinition('kappa')?.parseCredentials('kappa-key-0123')).toEqual({
      ok: true,
      credentials: { apiKey: 'kappa-key-0123' },
    });
    expect(channelTypeDefinition('compat')?.parseCredentials('AccessKey0123|SecretKey4567').ok).toBe(false);
  });

  it('passes its own boot check', () => {
    expect(() => indexChannelTypeDefinitions(CHANNEL_TYPE_DEFINITIONS)).not.toThrow();
  });

  it('accepts a type whose image capability works through its task capability', () => {
    const image = { mode: 'task', toGenerationTask: () => ({ upstreamModel: 'm', request: {} }) };
    const index = indexChannelTypeDefinitions([definition({ capabilities: { image, task: taskAdapter } })]);
    expect(index.get('beta')?.capabilities.image).toBe(image);
  });

  it.each([
    ['an unknown channel type', [definition({ type: 'kapa' })], "'kapa' is not a known channel type"],
    [
      'a type registered twice',
      [kappaChannelType, compatChannelType, { ...compatChannelType }],
      "'compat' is registered twice",
    ],
    ['a type with no capability', [definition({ capabilities: {} })], "'beta' declares no capability"],
    [
      'an unknown capability',
      [definition({ capabilities: { task: taskAdapter, music: taskAdapter } as never })],
      "'beta' declares an unknown capability 'music'",
    ],
    [
      'a text capability without stream()',
      [definition({ type: 'kappa', capabilities: { text: { ...kappaTextAdapter, stream: undefined } } })],
      "'kappa' text capability lacks stream()",
    ],
    [
      'a task capability without poll()',
      [definition({ capabilities: { task: { submit: taskAdapter.submit } } })],
      "'beta' task capability lacks poll()",
    ],
    [
      'an image capability working through tasks on a type without them',
      [definition({ capabilities: { image: { mode: 'task', toGenerationTask: () => ({}) } } })],
      "'beta' image capability works through tasks but the type has no task capability",
    ],
    [
      'a synchronous image capability without generate()',
      [definition({ capabilities: { image: { mode: 'synchronous' } } })],
      "'beta' image capability lacks generate()",
    ],
    [
      'a definition without a credentials parser',
      [definition({ parseCredentials: undefined })],
      "'beta' has no parseCredentials()",
    ],
    [
      'a line that is not a definition',
      [undefined as unknown as ChannelTypeDefinition],
      'a definition is not an object',
    ],
  ])('fails the boot check for %s', (_case, definitions, problem) => {
    const message = bootProblemsOf(definitions);
    expect(message).toMatch(/^channel type registry is invalid: /);
    expect(message).toContain(problem);
  });

  it('names every problem at once', () => {
    const message = bootProblemsOf([
      definition({ type: 'kapa' }),
      definition({ type: 'lambda', capabilities: {} }),
    ]);
    expect(message).toContain("'kapa' is not a known channel type");
    expect(message).toContain("'lambda' declares no capability");
  });
});
