/** The models the kappa simulator lists; any other `kappa-*` id is served as well. */
export const KAPPA_LISTED_MODELS = [
  'kappa-2.0-flash',
  'kappa-3-pro-image-preview',
  'kappa-2.5-flash-image-preview',
  'kappa-3.1-flash-image-preview',
] as const;

export const MODEL_RESOURCE_PREFIX = 'models/';

export function isKnownKappaModel(model: string): boolean {
  return model.startsWith('kappa-');
}

export function isKappaImageModel(model: string): boolean {
  return model.includes('-image');
}

/** One entry of the models list (upstreams.md §1.7). */
export function toKappaModelResource(model: string): Record<string, unknown> {
  const image = isKappaImageModel(model);
  return {
    name: `${MODEL_RESOURCE_PREFIX}${model}`,
    version: '001',
    displayName: displayNameOf(model),
    description: `Simulated ${model}.`,
    inputTokenLimit: image ? 32768 : 1048576,
    outputTokenLimit: image ? 32768 : 65536,
    supportedGenerationMethods: image
      ? ['generateContent', 'countTokens', 'batchGenerateContent']
      : ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
    temperature: 1,
    maxTemperature: 2,
    topP: 0.95,
    topK: 64,
    thinking: !image,
  };
}

function displayNameOf(model: string): string {
  return model
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
