import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import type { ByteStrings } from '@gateway/providers-core';

/** What the gateway attaches to a Fastify request on its way through. */
export interface GatewayRequestState {
  /** The client's JSON body exactly as received, for byte-exact pass-through (`forwardsRawBody` routes). */
  rawBody?: Buffer;
  /** The body's values held as its bytes (`holdsImagesAsBytes` routes), each a token in the parsed body. */
  byteStrings?: ByteStrings;
  apiKey?: ResolvedKey;
  /** How the request opened /admin, once it has: the admin token, or a console session cookie. */
  adminVia?: 'token' | 'session';
  startedAt: number;
  /**
   * Set once the generation pipeline has taken the request: from then on it writes the request's log row
   * on every path (settlement or refusal). Before that, RefusalLog writes the row of a refused request.
   */
  logRowOwned?: boolean;
}

export type GatewayRequest = FastifyRequest & { gateway: GatewayRequestState };

export function gatewayState(request: FastifyRequest): GatewayRequestState {
  return (request as GatewayRequest).gateway;
}
