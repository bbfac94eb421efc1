import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import { HoldLeases, HoldService, type LeasedHold } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { REQUEST_ID_HEADER, tracing } from '@gateway/observability';
import { RequestCancellation, type CancellationSignal } from '@gateway/providers-core';
import type { GatewayError } from '@gateway/errors';
import { AttemptMetrics } from './attempt-metrics';
import { answerFailure } from './failure-answer';
import { HoldRefusals } from './hold-refusal';
import { InFlightGenerations } from './in-flight-generations';
import { refusalLogOf, settlementLogOf, type GenerationOutcome } from './request-log-fields';
import { SettlementRecorder } from './settlement-recorder';
import { tracedHold } from './traced-hold';
import { warningHeader } from './warning-header';
import { gatewayErrorBody } from '../platform/http/error-reply';
import { sendAtTurnEnd } from '../platform/http/turn-end-sends';
import { gatewayState } from '../platform/http/gateway-request';
import { CONFIG, LOGGER } from '../platform/infrastructure/tokens';
import { REQUEST_GOVERNANCE, type GovernanceTicket, type RequestGovernance } from './request-governance';
import type {
  GenerationAnswer,
  GenerationCall,
  GenerationSettlement,
  PlannedGeneration,
  StreamAnswer,
  SynchronousGeneration,
} from './synchronous-generation';
import { isReplayed, type PlannedTask, type TaskCreationRoute } from './task-creation-route';

/** The header of a synchronous answer that says what it cost, in micros (the captured amount). */
export const COST_HEADER = 'x-gateway-cost-micros';

const NOTHING_CAPTURED = { costMicros: 0n } as const;
/** The outcome of a request whose answer could not be written at all (an error the route did not expect). */
const ANSWER_FAILED: GenerationOutcome = { httpStatus: 500, endReason: 'internal_error', attempts: 0 };
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Routes' hold refusals by hint, built once each: taking a hold then allocates no refusal helper. */
const refusalsByHint = new Map<string, HoldRefusals>();
function refusalsFor(hint: string): HoldRefusals {
  let refusals = refusalsByHint.get(hint);
  if (!refusals) refusalsByHint.set(hint, (refusals = new HoldRefusals(hint)));
  return refusals;
}

/** The pipeline's own view of a request: the settlement a whole answer computed for its cost header. */
interface RunningCall extends GenerationCall {
  settlement?: GenerationSettlement;
}

/**
 * The one request sequence of every inference route, whatever its modality (envoy's one processor
 * per endpoint spec, new-api's one numbered task relay):
 *
 *  1. plan: the route reads, checks and prices the request (its refusal: step 8's log row, no hold);
 *  2. admit: governance (limits, budgets, addresses) once, with the plan's model and price;
 *  3. hold: leased or a row, as the route chooses; refused, nothing more happens;
 *  4. run: registered in flight (shutdown ends it in the route's dialect), cancelled when the client leaves;
 *  5. call: the route calls its channels with failover (ChannelAttempts), or writes its task;
 *  6. answer: whole (with its cost; while others are in flight, at the end of the event loop's turn),
 *     a stream (head first), a task, or the failure in the route's dialect;
 *  7. settle: the capture and the log row, exactly once, after the answer;
 *  8. the refusal's log row, for every request refused before its hold.
 * The governance ticket's headers are on every answer of an admitted request, and its settle is
 * called exactly once on every path after admission.
 */
@Injectable()
export class GenerationPipeline {
  constructor(
    private readonly leases: HoldLeases,
    private readonly rowHolds: HoldService,
    private readonly recorder: SettlementRecorder,
    private readonly inFlight: InFlightGenerations,
    private readonly attemptMetrics: AttemptMetrics,
    @Inject(REQUEST_GOVERNANCE) private readonly governance: RequestGovernance,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A synchronous request (text, images, characters): answered whole or streamed, then settled. */
  async serve<Input, Plan extends PlannedGeneration, Outcome extends GenerationOutcome>(
    route: SynchronousGeneration<Input, Plan, Outcome>,
    input: Input,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const state = gatewayState(request);
    state.logRowOwned = true;
    const key = state.apiKey as ResolvedKey;
    const call: RunningCall = { request, key, startedAt: state.startedAt, model: undefined };
    let plan: Plan | undefined;
    let ticket: GovernanceTicket | undefined;
    let lease: LeasedHold | undefined;
    let held = true;
    try {
      const planned = route.plan(input, call);
      plan = planned instanceof Promise ? await planned : planned;
      const admitted = this.governance.admit({
        key,
        clientIp: request.ip,
        requestId: request.id,
        route: plan.route,
        model: plan.model,
        estimatedTokens: plan.estimatedTokens,
        holdMicros: plan.holdMicros,
        createsTask: false,
      });
      ticket = admitted instanceof Promise ? await admitted : admitted;
      reply.headers(ticket.headers);
      if (route.holdStyle === 'row-when-priced' && plan.holdMicros === 0n) held = false;
      else ({ lease } = await this.takeHold(route, plan, key, request.id));
    } catch (error) {
      this.recorder.logWithoutHold(
        refusalLogOf(
          request.id,
          key,
          plan?.model ?? call.model,
          plan?.route ?? route.routeOf(input),
          state.startedAt,
          error,
        ),
      );
      ticket?.settle(NOTHING_CAPTURED);
      throw error;
    }

    const cancellation = new RequestCancellation();
    // `on`, not `once`: a response closes once, and `once` binds a wrapper per request.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) cancellation.abort(new Error('client disconnected'));
    });
    const admitted = plan;
    const admittedTicket = ticket;
    await this.inFlight.run(cancellation, async () => {
      // Settled exactly once, even when writing the answer itself fails.
      let outcome = ANSWER_FAILED as Outcome;
      try {
        outcome = await this.answer(route, admitted, call, admittedTicket, reply, cancellation);
      } finally {
        this.settle(route, admitted, call, outcome, admittedTicket, held, lease);
      }
    });
  }

  /**
   * A task creation (video, music, `/bt`, theta, alpha, gamma): read and priced by the route, admitted,
   * held as a row named by the task, then written and started by the route. Answers nothing itself:
   * the controller renders what this returns in its dialect.
   */
  async createTask<Plan extends PlannedTask, Created>(
    route: TaskCreationRoute<Plan, Created>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Created> {
    const { key } = route;
    const { startedAt } = gatewayState(request);
    let ticket: GovernanceTicket | undefined;
    let plan: Plan;
    try {
      const planned = await route.plan();
      if (isReplayed(planned)) return planned.replayed;
      plan = planned;
      // A task creation awaits its governance whatever it answers: one hop on a path of several.
      ticket = await this.governance.admit({
        key,
        clientIp: request.ip,
        requestId: request.id,
        route: plan.hold.route,
        model: plan.hold.model,
        holdMicros: plan.hold.amount,
        createsTask: true,
      });
      reply.headers(ticket.headers);
      await this.takeRowHold(plan.hold.requestId, key, plan, request.id);
    } catch (error) {
      this.recorder.logWithoutHold(
        refusalLogOf(request.id, key, route.modelOfRefused(), route.route, startedAt, error),
      );
      ticket?.settle(NOTHING_CAPTURED);
      throw error;
    }
    let taskId: string | undefined;
    try {
      const created = await route.create(plan);
      taskId = created.taskId;
      return created.created;
    } finally {
      // The task's own settlement captures its cost later; the request's share ends here.
      ticket.settle(taskId === undefined ? NOTHING_CAPTURED : { costMicros: 0n, taskId });
    }
  }

  /** The hold, or the client's refusal (402, or 503 when billing cannot be reached); a span when tracing. */
  private takeHold<Plan extends PlannedGeneration>(
    route: SynchronousGeneration<unknown, Plan, GenerationOutcome>,
    plan: Plan,
    key: ResolvedKey,
    requestId: string,
  ): Promise<{ ok: true; lease?: LeasedHold }> {
    if (!tracing.enabled) return this.holdOrRefusal(route, plan, key, requestId);
    return tracedHold(route.holdStyle === 'leased' ? 'leased' : 'row', plan.model, () =>
      this.holdOrRefusal(route, plan, key, requestId),
    );
  }

  private holdOrRefusal<Plan extends PlannedGeneration>(
    route: SynchronousGeneration<unknown, Plan, GenerationOutcome>,
    plan: Plan,
    key: ResolvedKey,
    requestId: string,
  ): Promise<{ ok: true; lease?: LeasedHold }> {
    const input = {
      requestId,
      accountId: key.accountId,
      keyId: key.id,
      model: plan.model,
      route: plan.route,
      amount: plan.holdMicros,
      ttlMs: route.holdTtlMs(this.config),
    };
    const refusals = refusalsFor(route.holdHint);
    const taking = route.holdStyle === 'leased' ? this.leases.take(input) : this.rowHolds.take(input);
    return taking.then(refusals.accept, (error: unknown) => {
      this.logger.error({ err: error, requestId }, 'hold failed');
      throw refusals.unavailable();
    });
  }

  /** A task's hold as a row, or the client's refusal; a span when tracing. */
  private takeRowHold(holdId: string, key: ResolvedKey, plan: PlannedTask, requestId: string): Promise<void> {
    if (!tracing.enabled) return this.rowHoldOrRefusal(holdId, key, plan, requestId);
    return tracedHold('row', plan.hold.model, () => this.rowHoldOrRefusal(holdId, key, plan, requestId));
  }

  private async rowHoldOrRefusal(
    holdId: string,
    key: ResolvedKey,
    plan: PlannedTask,
    requestId: string,
  ): Promise<void> {
    const refusals = refusalsFor(plan.holdHint);
    await this.rowHolds
      .take({ ...plan.hold, accountId: key.accountId, keyId: key.id })
      .then(refusals.accept, (error: unknown) => {
        this.logger.error({ err: error, requestId, holdId }, 'hold failed');
        throw refusals.unavailable();
      });
  }

  /** Steps 5 and 6: the route's call, and its answer (or failure) written in the route's dialect. */
  private async answer<Plan extends PlannedGeneration, Outcome extends GenerationOutcome>(
    route: SynchronousGeneration<unknown, Plan, Outcome>,
    plan: Plan,
    call: RunningCall,
    ticket: GovernanceTicket,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): Promise<Outcome> {
    let answer: GenerationAnswer<Outcome>;
    try {
      answer = await route.answer(plan, call, signal);
    } catch (error) {
      return answerFailure(error, call.request, reply, signal, this.logger) as Outcome;
    }
    if (answer.kind === 'stream') return this.stream(answer, call, ticket, reply, signal);
    const settlement = route.settlementOf(plan, answer.outcome);
    call.settlement = settlement;
    reply
      .code(200)
      .headers(warningHeader(answer.warnings))
      .header(COST_HEADER, settlement.captureMicros.toString())
      .header('content-type', JSON_CONTENT_TYPE);
    // perf-machinery: turn-end-answers (docs/performance-machinery.md)
    if (this.inFlight.size > 1) sendAtTurnEnd(() => this.sendSafely(reply, answer.body));
    else reply.send(answer.body);
    this.attemptMetrics.observe(answer.served.candidate, answer.served.durationMs);
    return answer.outcome;
  }

  /** A deferred send has no caller to throw to: a reply that cannot be written closes its connection. */
  private sendSafely(reply: FastifyReply, body: unknown): void {
    try {
      reply.send(body);
    } catch (error) {
      this.logger.error({ err: error, requestId: reply.request.id }, 'answer could not be written');
      reply.raw.destroy();
    }
  }

  /** The head (its headers written with it: the reply's own are not sent once hijacked), then the relay. */
  private async stream<Outcome extends GenerationOutcome>(
    answer: StreamAnswer<Outcome>,
    call: GenerationCall,
    ticket: GovernanceTicket,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): Promise<Outcome> {
    const { request } = call;
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, {
      'content-type': answer.contentType,
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      [REQUEST_ID_HEADER]: request.id,
      ...ticket.headers,
      ...warningHeader(answer.warnings),
    });
    try {
      return await answer.relay({
        requestId: request.id,
        raw,
        signal,
        ttfbMs: Date.now() - call.startedAt,
        errorBody: (error: GatewayError) => gatewayErrorBody(request, error),
      });
    } finally {
      // Recorded once the stream is out: before its first write, it would delay the first byte.
      this.attemptMetrics.observe(answer.served.candidate, answer.served.durationMs);
    }
  }

  /** Step 7: one settlement (or, without a hold, one log row) and one governance settle. */
  private settle<Plan extends PlannedGeneration, Outcome extends GenerationOutcome>(
    route: SynchronousGeneration<unknown, Plan, Outcome>,
    plan: Plan,
    call: RunningCall,
    outcome: Outcome,
    ticket: GovernanceTicket,
    held: boolean,
    lease: LeasedHold | undefined,
  ): void {
    const { captureMicros, tokens, imageCount } = call.settlement ?? route.settlementOf(plan, outcome);
    const log = settlementLogOf(
      call.key,
      plan.model,
      plan.route,
      call.startedAt,
      outcome,
      tokens,
      imageCount,
    );
    const requestId = call.request.id;
    if (held) {
      this.recorder.settle({
        requestId,
        // Captured as far as the account can pay; the settlement logs the rest as the request's overage.
        captureMicros,
        log,
        lease: lease && this.leases.release(lease, captureMicros),
      });
    } else {
      this.recorder.logWithoutHold({ ...log, requestId, costMicros: 0n });
    }
    ticket.settle({
      tokens: tokens ? tokens.inputTokens + tokens.outputTokens : undefined,
      costMicros: held ? captureMicros : 0n,
    });
  }
}
