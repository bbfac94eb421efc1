import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  AuthFailureThrottle,
  extractCredential,
  isKeyRejection,
  KeyResolver,
  type KeyResolution,
} from '@gateway/auth';
import { GatewayError } from '@gateway/errors';
import { routeFamilyOf } from '../errors/route-family';
import { GovernanceRefusalLog } from '../../governance/governance-refusal-log';
import { ipRefusal } from '../../governance/governance-refusals';
import { gatewayState, type GatewayRequestState } from '../http/gateway-request';
import { refusalAfterFailure } from './auth-failure.refusal';

const REJECTION_MESSAGES = {
  missing: 'No API key provided. Send it as Authorization: Bearer <key>.',
  unknown: 'The API key is not valid.',
  disabled: 'The API key has been disabled.',
  expired: 'The API key has expired.',
} as const;

/** Resolves the inference key (cached; no database query on a hit) and attaches it to the request. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: KeyResolver,
    private readonly failures: AuthFailureThrottle,
    private readonly refusals: GovernanceRefusalLog,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.authenticate(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }

  /**
   * Attaches the request's key, or refuses it with a GatewayError (thrown, or the promise's rejection).
   * Synchronous when the key is cached, as it is for every request of a busy key; a request
   * authenticated already (by the early hook, before its body was read) is not checked twice.
   */
  authenticate(request: FastifyRequest): void | Promise<void> {
    const state = gatewayState(request);
    if (state.apiKey !== undefined) return;
    const family = routeFamilyOf(request) === 'native' ? 'native' : 'openai';
    const credential = extractCredential(request.headers, request.query as Record<string, unknown>, family);
    if (!credential) {
      const hint = family === 'native' ? ' (or x-vendor-api-key: <key>, or ?key=<key>)' : '';
      return this.refuse(
        request,
        new GatewayError('unauthenticated', REJECTION_MESSAGES.missing.replace('.', `${hint}.`)),
      );
    }
    const resolution = this.keys.resolve(credential);
    if (!(resolution instanceof Promise)) return this.admit(request, state, resolution);
    return resolution.then(
      (resolved) => this.admit(request, state, resolved),
      (error: unknown) => {
        throw new GatewayError('service_unavailable', 'Keys cannot be checked right now; retry shortly.', {
          cause: error,
        });
      },
    );
  }

  private admit(
    request: FastifyRequest,
    state: GatewayRequestState,
    resolution: KeyResolution,
  ): void | Promise<void> {
    if (isKeyRejection(resolution)) {
      return this.refuse(request, new GatewayError('unauthenticated', REJECTION_MESSAGES[resolution.reason]));
    }
    // The key's IP allow-list holds for everything it is used for: inference, task reads, downloads.
    const allowedIps = resolution.governance?.allowedIps;
    if (allowedIps && !allowedIps.allows(request.ip)) {
      const refusal = ipRefusal(request.ip);
      this.refusals.record(
        {
          key: resolution,
          requestId: request.id,
          route: request.routeOptions.url ?? request.url.split('?')[0] ?? request.url,
          startedAt: state.startedAt,
        },
        refusal,
      );
      throw refusal;
    }
    state.apiKey = resolution;
  }

  /** A failed authentication, counted against the client's address (auth-failure.refusal.ts). */
  private async refuse(request: FastifyRequest, refusal: GatewayError): Promise<never> {
    throw await refusalAfterFailure(this.failures, request, refusal);
  }
}
