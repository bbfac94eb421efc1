import {
  CAPABILITY_NAMES,
  isChannelType,
  type CapabilityName,
  type ChannelType,
  type ChannelTypeDefinition,
} from '@gateway/providers-core';

/** The members a capability object must have as functions; an image capability's depend on its mode. */
const REQUIRED_METHODS: Readonly<Record<Exclude<CapabilityName, 'image'>, readonly string[]>> = {
  text: ['generate', 'stream', 'classify'],
  task: ['submit', 'poll'],
  asset: [
    'servesAssets',
    'createGroup',
    'updateGroup',
    'deleteGroup',
    'createAsset',
    'getAsset',
    'updateAsset',
    'deleteAsset',
  ],
  video: ['servesVideoModel', 'planVideo'],
};

const IMAGE_METHODS_BY_MODE: Readonly<Record<string, readonly string[]>> = {
  synchronous: ['generate'],
  task: ['toGenerationTask'],
};

const TEXT_DIALECTS: readonly unknown[] = ['native', 'openai'];

/** The type's name as written in a problem; a definition that is not even an object has none. */
const nameOf = (definition: ChannelTypeDefinition): string => `'${String(definition?.type)}'`;

function missingMethods(capability: object, methods: readonly string[]): string[] {
  const members = capability as Record<string, unknown>;
  return methods.filter((method) => typeof members[method] !== 'function');
}

/** What is wrong with one capability of a definition, if anything. */
function capabilityProblems(definition: ChannelTypeDefinition, name: string, capability: unknown): string[] {
  const owner = nameOf(definition);
  if (!(CAPABILITY_NAMES as readonly string[]).includes(name)) {
    return [`${owner} declares an unknown capability '${name}'`];
  }
  if (typeof capability !== 'object' || capability === null) {
    return [`${owner} declares the ${name} capability without an adapter`];
  }
  let methods: readonly string[];
  const problems: string[] = [];
  if (name === 'image') {
    const mode = (capability as { mode?: unknown }).mode;
    methods = IMAGE_METHODS_BY_MODE[String(mode)] ?? [];
    if (!(String(mode) in IMAGE_METHODS_BY_MODE)) {
      problems.push(`${owner} image capability has an unknown mode '${String(mode)}'`);
    } else if (mode === 'task' && !definition.capabilities.task) {
      problems.push(`${owner} image capability works through tasks but the type has no task capability`);
    }
  } else if (name === 'video' && !definition.capabilities.task) {
    methods = REQUIRED_METHODS.video;
    problems.push(`${owner} video capability needs the task capability to submit and poll`);
  } else {
    methods = REQUIRED_METHODS[name as Exclude<CapabilityName, 'image'>];
    if (name === 'text' && !TEXT_DIALECTS.includes((capability as { dialect?: unknown }).dialect)) {
      problems.push(`${owner} text capability has no known dialect`);
    }
  }
  for (const method of missingMethods(capability, methods)) {
    problems.push(`${owner} ${name} capability lacks ${method}()`);
  }
  return problems;
}

/** What is wrong with one definition on its own. */
function definitionProblems(definition: ChannelTypeDefinition): string[] {
  const owner = nameOf(definition);
  if (typeof definition !== 'object' || definition === null) return ['a definition is not an object'];
  const problems: string[] = [];
  if (!isChannelType(definition.type)) problems.push(`${owner} is not a known channel type`);
  if (typeof definition.parseCredentials !== 'function') problems.push(`${owner} has no parseCredentials()`);
  if (typeof definition.settings !== 'function') problems.push(`${owner} has no settings schema class`);
  const capabilities = Object.entries(definition.capabilities ?? {}).filter(
    ([, value]) => value !== undefined,
  );
  if (capabilities.length === 0) problems.push(`${owner} declares no capability`);
  for (const [name, capability] of capabilities) {
    problems.push(...capabilityProblems(definition, name, capability));
  }
  return problems;
}

/**
 * Indexes the definitions by channel type, checking them as the process boots: an unknown type, a
 * type listed twice, or capabilities that do not match what they declare (a missing method, an
 * unknown capability, an image capability that works through tasks on a type without them) stop
 * the boot with every problem named.
 */
export function indexChannelTypeDefinitions(
  definitions: readonly ChannelTypeDefinition[],
): ReadonlyMap<ChannelType, ChannelTypeDefinition> {
  const byType = new Map<ChannelType, ChannelTypeDefinition>();
  const problems: string[] = [];
  for (const definition of definitions) {
    const own = definitionProblems(definition);
    if (own.length > 0) problems.push(...own);
    else if (byType.has(definition.type)) problems.push(`${nameOf(definition)} is registered twice`);
    else byType.set(definition.type, definition);
  }
  if (problems.length > 0) throw new Error(`channel type registry is invalid: ${problems.join('; ')}`);
  return byType;
}
