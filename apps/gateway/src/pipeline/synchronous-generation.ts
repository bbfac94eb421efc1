import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import type { CancellationSignal, TokenUsage } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import type { GatewayError } from '@gateway/errors';
import type { GenerationOutcome } from './request-log-fields';

/** What a route decides before money moves: the model, the most it may cost, how it is named. */
export interface PlannedGeneration {
  readonly model: string;
  /** The route its hold and log row name (`/v1beta/models/{model}:generateContent`). */
  readonly route: string;
  readonly holdMicros: bigint;
  /** Text routes: prompt and most output, for the token limits of admission. */
  readonly estimatedTokens?: number;
}

/**
 * One request on its way through the pipeline, as a route's code sees it. The pipeline builds it once;
 * `model` is set by the route's plan as soon as it has read one, so that a refusal's log row names it.
 */
export interface GenerationCall {
  readonly request: FastifyRequest;
  readonly key: ResolvedKey;
  readonly startedAt: number;
  model?: string;
}

/**
 * How a route holds: `leased` from this process's lease (the text hot path: no row, no round trip
 * while the lease covers it), `row` as a hold row, `row-when-priced` as a row only when the plan costs
 * something (a request the operator has not priced is free and holds nothing).
 */
export type HoldStyle = 'leased' | 'row' | 'row-when-priced';

/** Where the answer came from, recorded once the client has it (recording first would delay it). */
export interface ServedAttempt {
  readonly candidate: ChannelCandidate;
  readonly durationMs: number;
}

/** A whole answer: the pipeline writes it with the request's headers and its cost. */
export interface WholeAnswer<Outcome extends GenerationOutcome> {
  readonly kind: 'whole';
  readonly body: Buffer | object;
  readonly warnings: readonly string[];
  readonly outcome: Outcome;
  readonly served: ServedAttempt;
}

/** How a stream's relay writes: chunks through the writer, an error in the route's dialect. */
export interface StreamSink {
  readonly requestId: string;
  readonly raw: ServerResponse;
  readonly signal: CancellationSignal;
  /** Milliseconds from the request's arrival to the head: the stream's time to first byte. */
  readonly ttfbMs: number;
  errorBody(error: GatewayError): Record<string, unknown>;
}

/**
 * A stream opened upstream, not yet written: the pipeline writes its head (with the request's
 * headers) and hands the response to `relay`, which writes the chunks and ends it. The cost is known
 * only at its end, so it is in the log row, not in a header.
 */
export interface StreamAnswer<Outcome extends GenerationOutcome> {
  readonly kind: 'stream';
  readonly contentType: string;
  readonly warnings: readonly string[];
  readonly served: ServedAttempt;
  relay(sink: StreamSink): Promise<Outcome>;
}

export type GenerationAnswer<Outcome extends GenerationOutcome> =
  WholeAnswer<Outcome> | StreamAnswer<Outcome>;

/** What a settled request captures and its log row counts. */
export interface GenerationSettlement {
  readonly captureMicros: bigint;
  readonly tokens?: TokenUsage;
  readonly imageCount?: number;
}

/**
 * What a synchronous route (text, images, characters) contributes to the pipeline; the pipeline does
 * the rest, once for all of them (GenerationPipeline.serve). `Outcome` adds the route's usage to the
 * common outcome; its own fields are optional, since a request that got no answer has none.
 */
export interface SynchronousGeneration<
  Input,
  Plan extends PlannedGeneration,
  Outcome extends GenerationOutcome,
> {
  readonly holdStyle: HoldStyle;
  /** What a client whose balance cannot cover the hold can lower. */
  readonly holdHint: string;
  holdTtlMs(config: GatewayConfig): number;
  /** The route a request refused before its plan names in its log row. */
  routeOf(input: Input): string;
  /** Reads, checks and prices the request: everything decided before money moves. Throws the refusal. */
  plan(input: Input, call: GenerationCall): Plan | Promise<Plan>;
  /**
   * Calls the channels (with failover) and returns the answer to write. Throws when no answer came:
   * the pipeline answers the failure in the route's dialect (ServedFailure keeps the channel it came from).
   */
  answer(plan: Plan, call: GenerationCall, signal: CancellationSignal): Promise<GenerationAnswer<Outcome>>;
  settlementOf(plan: Plan, outcome: Outcome): GenerationSettlement;
}
