import type { ResolvedKey } from '@gateway/auth';
import { GatewayError } from '@gateway/errors';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

/** Models a key may use: offered by an enabled channel and inside the key's allow-list, sorted. */
export function modelsVisibleTo(key: ResolvedKey, offered: readonly string[]): string[] {
  const allowed = key.allowedModels;
  return offered.filter((model) => !allowed || allowed.has(model)).sort();
}

/** Whether one model is among modelsVisibleTo, without listing them all. */
export function isModelVisibleTo(key: ResolvedKey, offered: readonly string[], model: string): boolean {
  return (!key.allowedModels || key.allowedModels.has(model)) && offered.includes(model);
}

export function toNativeModel(model: string): Record<string, unknown> {
  return {
    name: `models/${model}`,
    version: '001',
    displayName: model,
    description: `${model}, served through the gateway.`,
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
  };
}

export function toOpenAiModel(model: string): Record<string, unknown> {
  return { id: model, object: 'model', created: 0, owned_by: 'gateway' };
}

/** The native list shape: `{ models, nextPageToken? }`; the page token is an opaque offset. */
export function nativeModelPage(
  models: readonly string[],
  pageSizeParam: string | undefined,
  pageToken: string | undefined,
): Record<string, unknown> {
  const pageSize = pageSizeParam === undefined ? DEFAULT_PAGE_SIZE : Number(pageSizeParam);
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw GatewayError.invalidRequest('pageSize must be a positive integer.', 'pageSize');
  }
  const offset = pageToken ? Number(Buffer.from(pageToken, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(offset) || offset < 0)
    throw GatewayError.invalidRequest('pageToken is not valid.', 'pageToken');
  const end = offset + Math.min(pageSize, MAX_PAGE_SIZE);
  const page: Record<string, unknown> = { models: models.slice(offset, end).map(toNativeModel) };
  if (end < models.length) page['nextPageToken'] = Buffer.from(String(end)).toString('base64url');
  return page;
}
