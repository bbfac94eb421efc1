import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthFailureThrottle } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import { AdminTokenGuard } from '../../platform/auth/admin-token.guard';
import { refusalAfterFailure } from '../../platform/auth/auth-failure.refusal';
import { crossOriginRefusal } from '../../platform/auth/same-origin.check';
import { GatewayError } from '@gateway/errors';
import { CONFIG } from '../../platform/infrastructure/tokens';
import type { DeclaredBody } from '../../platform/http/declared-body';
import { consoleSessionIdOf } from './console-session-cookie.util';
import { ConsoleSessionStore, type ConsoleSession } from './console-session.store';
import type { SignInDto } from './sign-in.dto';

/**
 * Signing in to the console and out of it. The admin token is exchanged for a random session id, so
 * the browser never holds the token: a stolen cookie dies with its session, a stolen token does not.
 */
@Injectable()
export class ConsoleSessionService {
  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly guard: AdminTokenGuard,
    private readonly failures: AuthFailureThrottle,
    private readonly sessions: ConsoleSessionStore,
  ) {}

  /**
   * A new session for the admin token in the body: 400 for a body without one, 401 for a wrong token
   * and 403 for an inference key (both counted by the auth-failure throttle, 429 past it), 403 from
   * another origin, 503 while Redis is away.
   */
  async signIn(
    request: FastifyRequest,
    body: DeclaredBody<SignInDto>,
  ): Promise<{ id: string; session: ConsoleSession }> {
    this.ensureEnabled();
    this.refuseForeignPages(request);
    // Validated after the origin check: a foreign page is refused whatever it sends.
    const { token } = body.fields();
    const refusal = this.guard.tokenRefusalOf(token);
    if (refusal !== undefined) throw await refusalAfterFailure(this.failures, request, refusal);
    return this.sessions.create();
  }

  /** The request's live session; 401 without one. */
  async current(request: FastifyRequest): Promise<ConsoleSession> {
    this.ensureEnabled();
    const session = await this.sessions.find(consoleSessionIdOf(request));
    if (session === undefined) {
      throw new GatewayError('unauthenticated', 'No console session: sign in with POST /admin/session.');
    }
    return session;
  }

  /** Ends the request's session, if it has one, on every instance. */
  async signOut(request: FastifyRequest): Promise<void> {
    this.ensureEnabled();
    const id = consoleSessionIdOf(request);
    if (id === undefined) return;
    // Another site must not be able to sign the operator out either.
    const crossOrigin = crossOriginRefusal(request, this.config.publicBaseUrl);
    if (crossOrigin !== undefined) throw crossOrigin;
    await this.sessions.delete(id);
  }

  /**
   * Sign-in carries the token itself, so a script without Origin may sign in; a page of another origin
   * may not (it could sign the browser in to a session of its choosing).
   */
  private refuseForeignPages(request: FastifyRequest): void {
    const fromPage = ['origin', 'referer', 'sec-fetch-site'].some(
      (name) => request.headers[name] !== undefined,
    );
    const crossOrigin = fromPage ? crossOriginRefusal(request, this.config.publicBaseUrl) : undefined;
    if (crossOrigin !== undefined) throw crossOrigin;
  }

  private ensureEnabled(): void {
    if (!this.config.console.enabled) {
      throw new GatewayError('not_found', 'The console is turned off here (CONSOLE_ENABLED=false).');
    }
  }
}
