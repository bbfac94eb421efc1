import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthFailureThrottle, extractCredential, isValidAdminToken, looksLikeApiKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import { GatewayError } from '../errors/gateway-error';
import { CONFIG } from '../infrastructure/tokens';
import { refusalAfterFailure } from './auth-failure.refusal';

/** The admin API opens only to the operator token; an inference key never does. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly failures: AuthFailureThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }

  /** Returns when the request carries the admin token; throws the refusal otherwise. */
  async authenticate(request: FastifyRequest): Promise<void> {
    const refusal = this.refusalOf(request);
    if (refusal !== undefined) throw await refusalAfterFailure(this.failures, request, refusal);
  }

  private refusalOf(request: FastifyRequest): GatewayError | undefined {
    const token = extractCredential(request.headers, {}, 'admin');
    if (!token) {
      return new GatewayError(
        'unauthenticated',
        'The admin API requires Authorization: Bearer <ADMIN_TOKEN>.',
      );
    }
    if (isValidAdminToken(token, this.config.adminToken)) return undefined;
    if (looksLikeApiKey(token)) {
      return new GatewayError('permission_denied', 'Inference keys cannot use the admin API.');
    }
    return new GatewayError('unauthenticated', 'The admin token is not valid.');
  }
}
