import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiCookieAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { CONFIG } from '../../platform/infrastructure/tokens';
import { adminBody } from '../shared/admin-body.declaration';
import { clearedSessionCookie, CONSOLE_SESSION_COOKIE, sessionCookie } from './console-session-cookie.util';
import { ConsoleSessionService } from './console-session.service';
import { ConsoleSessionView } from './console-session.view';
import { SignInDto } from './sign-in.dto';

/**
 * The console's session: `POST` trades the admin token for an HttpOnly cookie, `GET` says whether the
 * cookie still opens /admin, `DELETE` ends it. Not behind AdminTokenGuard: each route checks what it
 * is sent itself (and the early authentication hook lets this one path through).
 */
@ApiTags('admin')
@Controller('admin/session')
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Sign in to the console: the admin token for a session cookie',
    description:
      `Sets \`${CONSOLE_SESSION_COOKIE}\` (HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS) for ` +
      'CONSOLE_SESSION_TTL seconds. A wrong token is 401, an inference key 403, both counted by the ' +
      'auth-failure throttle; 503 while Redis, which keeps sessions, is unavailable.',
    security: [],
  })
  @DeclaresBody(adminBody(SignInDto))
  @ApiNoContentResponse({ description: 'Signed in; the cookie is set.' })
  async signIn(
    @Req() request: FastifyRequest,
    @RouteBody() body: DeclaredBody<SignInDto>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const { id } = await this.sessions.signIn(request, body);
    reply
      .header('set-cookie', sessionCookie(request, id, this.config.console.sessionTtlSeconds))
      .header('cache-control', 'no-store');
  }

  @Get()
  @ApiCookieAuth('console-session')
  @ApiOperation({ summary: 'The console session the cookie names, and when it ends; 401 without one' })
  @ApiOkResponse({ type: ConsoleSessionView })
  async current(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const session = await this.sessions.current(request);
    reply.header('cache-control', 'no-store');
    return { expiresAt: session.expiresAt.toISOString() };
  }

  @Delete()
  @HttpCode(204)
  @ApiCookieAuth('console-session')
  @ApiOperation({
    summary: 'Sign out: the session ends on every instance and the cookie is cleared',
    description: 'Answers 204 without a session too. From another origin: 403.',
  })
  @ApiNoContentResponse({ description: 'Signed out.' })
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.signOut(request);
    reply.header('set-cookie', clearedSessionCookie(request)).header('cache-control', 'no-store');
  }
}
