import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import type { SettlementService } from '@gateway/billing';
import type { GatewayMetrics } from '@gateway/observability';
import type { GatewayError } from '@gateway/errors';

export interface RefusedRequest {
  readonly key: ResolvedKey;
  readonly requestId: string;
  readonly route: string;
  readonly model?: string;
  readonly startedAt: number;
}

/**
 * Refusals by governance (limit, budget, allow-list): counted by reason, and, for those made before the
 * pipeline takes the request (the allow-list in the API-key guard), logged here with the refusal's code
 * as the end reason. Written off the request's path; a failure is logged.
 */
export class GovernanceRefusalLog {
  constructor(
    private readonly settlements: Pick<SettlementService, 'recordWithoutHold'>,
    private readonly metrics: Pick<GatewayMetrics, 'governanceRefusals'>,
    private readonly logger: Logger,
  ) {}

  /** Counts a refusal whose log row the pipeline writes. */
  count(error: GatewayError): void {
    this.metrics.governanceRefusals.inc({ reason: error.code });
  }

  /** Counts and logs a refusal made before the pipeline (the API-key guard's allow-list check). */
  record(request: RefusedRequest, error: GatewayError): void {
    this.count(error);
    this.settlements
      .recordWithoutHold([
        {
          requestId: request.requestId,
          keyId: request.key.id,
          accountId: request.key.accountId,
          model: request.model,
          route: request.route,
          httpStatus: error.httpStatus,
          endReason: error.code,
          latencyMs: Math.max(0, Date.now() - request.startedAt),
          inputTokens: 0,
          outputTokens: 0,
          costMicros: 0n,
          attempts: 0,
        },
      ])
      .catch((failure: unknown) =>
        this.logger.warn({ err: failure, requestId: request.requestId }, 'governance refusal not logged'),
      );
  }
}
