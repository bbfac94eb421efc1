import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { extractCredential, isValidAdminToken, looksLikeApiKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import { GatewayError } from '../errors/gateway-error';
import { CONFIG } from '../infrastructure/tokens';

/** The admin API opens only to the operator token; an inference key never does. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(CONFIG) private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = extractCredential(request.headers, {}, 'admin');
    if (!token)
      throw new GatewayError(
        'unauthenticated',
        'The admin API requires Authorization: Bearer <ADMIN_TOKEN>.',
      );
    if (isValidAdminToken(token, this.config.adminToken)) return true;
    if (looksLikeApiKey(token)) {
      throw new GatewayError('permission_denied', 'Inference keys cannot use the admin API.');
    }
    throw new GatewayError('unauthenticated', 'The admin token is not valid.');
  }
}
