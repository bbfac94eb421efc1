import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthFailureThrottle, extractCredential, isValidAdminToken, looksLikeApiKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import { consoleSessionIdOf } from '../../admin/session/console-session-cookie.util';
import { ConsoleSessionStore } from '../../admin/session/console-session.store';
import { GatewayError } from '@gateway/errors';
import { gatewayState, type GatewayRequestState } from '../http/gateway-request';
import { CONFIG } from '../infrastructure/tokens';
import { refusalAfterFailure } from './auth-failure.refusal';
import { crossOriginRefusal } from './same-origin.check';

/**
 * The admin API opens to the operator token (`Authorization: Bearer`) or to a console session cookie
 * made from it (POST /admin/session); an inference key never opens it. A bearer token, when sent, is
 * judged alone. A cookie opens only requests from the gateway's own pages (same-origin.check.ts).
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly failures: AuthFailureThrottle,
    private readonly sessions: ConsoleSessionStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }

  /** Returns when the request carries the admin token or a live session; throws the refusal otherwise. */
  async authenticate(request: FastifyRequest): Promise<void> {
    // Absent where the app runs without bootstrap's hooks (a module under test).
    const state = gatewayState(request) as GatewayRequestState | undefined;
    // Checked already by the early hook: a session costs one Redis read per request, not two.
    if (state?.adminVia !== undefined) return;
    const token = extractCredential(request.headers, {}, 'admin');
    const sessionId = this.config.console.enabled ? consoleSessionIdOf(request) : undefined;
    if (token === undefined && sessionId !== undefined) {
      await this.authenticateSession(request, sessionId);
      if (state) state.adminVia = 'session';
      return;
    }
    const refusal = this.tokenRefusalOf(token);
    if (refusal !== undefined) throw await refusalAfterFailure(this.failures, request, refusal);
    if (state) state.adminVia = 'token';
  }

  /** The same refusals as a bearer token gets, for POST /admin/session, which trades the token for a cookie. */
  tokenRefusalOf(token: string | undefined): GatewayError | undefined {
    if (!token) {
      return new GatewayError(
        'unauthenticated',
        'The admin API requires Authorization: Bearer <ADMIN_TOKEN> (or a console session).',
      );
    }
    if (isValidAdminToken(token, this.config.adminToken)) return undefined;
    if (looksLikeApiKey(token)) {
      return new GatewayError('permission_denied', 'Inference keys cannot use the admin API.');
    }
    return new GatewayError('unauthenticated', 'The admin token is not valid.');
  }

  private async authenticateSession(request: FastifyRequest, sessionId: string): Promise<void> {
    // Before the session is looked up: another site's request learns nothing, and costs no Redis call.
    const crossOrigin = crossOriginRefusal(request, this.config.publicBaseUrl);
    if (crossOrigin !== undefined) throw crossOrigin;
    if ((await this.sessions.find(sessionId)) !== undefined) return;
    const refusal = new GatewayError(
      'unauthenticated',
      'The console session has expired or was signed out; sign in again.',
    );
    throw await refusalAfterFailure(this.failures, request, refusal);
  }
}
