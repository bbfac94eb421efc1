import { GatewayError } from '@gateway/errors';

export function channelNotFound(id: string): GatewayError {
  return new GatewayError('not_found', `No channel has the id "${id}".`);
}
