import { VIDEO_LIST_LIMITS, VIDEO_LIST_ORDERS } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

/** `GET /v1/videos`: `after` (a video id), `limit` 1–100 (default 20), `order` asc|desc (default desc). */
export interface VideoListQuery {
  after?: string;
  limit: number;
  order: (typeof VIDEO_LIST_ORDERS)[number];
}

const WHOLE_NUMBER = /^\d{1,3}$/;

export function toVideoListQuery(query: Record<string, unknown>): VideoListQuery {
  const after = single(query, 'after');
  const limit = single(query, 'limit');
  const order = single(query, 'order') ?? 'desc';
  const pageSize = limit === undefined ? VIDEO_LIST_LIMITS.defaultLimit : Number(limit);
  if (
    limit !== undefined &&
    (!WHOLE_NUMBER.test(limit) || pageSize < 1 || pageSize > VIDEO_LIST_LIMITS.maxLimit)
  ) {
    throw GatewayError.invalidRequest(`limit must be between 1 and ${VIDEO_LIST_LIMITS.maxLimit}.`, 'limit');
  }
  const knownOrder = VIDEO_LIST_ORDERS.find((known) => known === order);
  if (!knownOrder) throw GatewayError.invalidRequest('order must be asc or desc.', 'order');
  return { ...(after === undefined || after === '' ? {} : { after }), limit: pageSize, order: knownOrder };
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || typeof value === 'string') return value;
  throw GatewayError.invalidRequest(`${name} must be given once.`, name);
}
