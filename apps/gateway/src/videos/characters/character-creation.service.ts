import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import { HoldService, PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { videoAdapterFor } from '@gateway/providers';
import {
  RequestCancellation,
  type CancellationSignal,
  type CharacterClip,
  type CreatedCharacter,
  type SafeFetcher,
} from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker, type ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '../../errors/gateway-error';
import { AdapterContexts } from '../../generation/adapter-contexts';
import { AttemptMetrics } from '../../generation/attempt-metrics';
import { withChannelFailover } from '../../generation/channel-failover';
import { answerFailure } from '../../generation/failure-answer';
import { takenOrRefused } from '../../generation/hold-refusal';
import { InFlightGenerations } from '../../generation/in-flight-generations';
import { assertModelAllowed, modelNotFound } from '../../generation/model-admission';
import { refusalLogOf, settlementLogOf, type GenerationOutcome } from '../../generation/request-log-fields';
import { SettlementRecorder } from '../../generation/settlement-recorder';
import { warningHeader } from '../../generation/warning-header';
import { gatewayState } from '../../http/gateway-request';
import { CONFIG, LOGGER, SAFE_FETCHER } from '../../infrastructure/tokens';
import { downloadCharacterClip } from './character-clip.download';
import { characterRequestOf, type CharacterRequest } from './character-request';

export const CHARACTERS_ROUTE = '/delta/v1/characters';
/**
 * The price name of a character creation: its `perCall` is charged per character created when the
 * operator prices it; unpriced, characters are free (the upstream charges none for them, and the
 * videos made with one are priced as any other).
 */
export const CHARACTER_PRICE_MODEL = 'delta-character';
const HOLD_HINT = 'Add credit.';

/** The answer: the upstream's character, in the upstream's own shape (upstreams.md §2.4). */
export interface CharacterAnswer {
  id: string;
  name: string;
  created_at: number;
}

interface Admission {
  character: CharacterRequest;
  candidates: ChannelCandidate[];
  priceMicros: bigint;
}

/**
 * `POST /delta/v1/characters`: checks the body, chooses among the channels of the delta model whose
 * wire can create characters, holds the character's price when it has one, downloads the clip through
 * the SSRF-safe fetcher, and creates the character upstream (failing over between channels like any
 * generation). The window of `character_timestamps` goes with the clip; a wire that takes the whole
 * clip drops it and says so in `x-gateway-warning`. Refusals before the hold are logged with nothing
 * charged; after it, the hold is released unless a character was made.
 */
@Injectable()
export class CharacterCreationService {
  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly breaker: CircuitBreaker,
    private readonly prices: PriceBook,
    private readonly holds: HoldService,
    private readonly recorder: SettlementRecorder,
    private readonly inFlight: InFlightGenerations,
    private readonly contexts: AdapterContexts,
    private readonly attemptMetrics: AttemptMetrics,
    @Inject(SAFE_FETCHER) private readonly fetcher: SafeFetcher,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async create(body: unknown, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const state = gatewayState(request);
    const key = state.apiKey as ResolvedKey;
    let model: string | undefined;
    let admission: Admission;
    try {
      const character = characterRequestOf(body);
      model = character.model;
      admission = await this.admit(key, character, request.id);
    } catch (error) {
      this.recorder.logWithoutHold(
        refusalLogOf(request.id, key, model, CHARACTERS_ROUTE, state.startedAt, error),
      );
      throw error;
    }
    const cancellation = new RequestCancellation();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) cancellation.abort(new Error('client disconnected'));
    });
    await this.inFlight.run(cancellation, async () => {
      const outcome = await this.answer(admission, request, reply, cancellation);
      const captureMicros = outcome.httpStatus === 200 ? admission.priceMicros : 0n;
      const log = settlementLogOf(
        key,
        admission.character.model,
        CHARACTERS_ROUTE,
        state.startedAt,
        outcome,
        undefined,
      );
      if (admission.priceMicros > 0n) this.recorder.settle({ requestId: request.id, captureMicros, log });
      else this.recorder.logWithoutHold({ ...log, requestId: request.id, costMicros: 0n });
    });
  }

  /** The key may use the model, a channel can make characters of it, and the account covers the price. */
  private async admit(key: ResolvedKey, character: CharacterRequest, requestId: string): Promise<Admission> {
    assertModelAllowed(key, character.model);
    const candidates = this.catalog
      .candidatesFor(character.model)
      .filter((candidate) => makesCharacters(candidate, character.model));
    if (candidates.length === 0) throw modelNotFound(character.model);
    const priceMicros = this.prices.priceFor(CHARACTER_PRICE_MODEL)?.perCall ?? 0n;
    if (priceMicros > 0n) {
      const taking = this.holds.take({
        requestId,
        accountId: key.accountId,
        keyId: key.id,
        model: CHARACTER_PRICE_MODEL,
        route: CHARACTERS_ROUTE,
        amount: priceMicros,
        ttlMs: this.config.holdTtlMs,
      });
      await takenOrRefused(taking, HOLD_HINT, (error) =>
        this.logger.error({ err: error, requestId }, 'hold failed'),
      );
    }
    return { character, candidates, priceMicros };
  }

  private async answer(
    admission: Admission,
    request: FastifyRequest,
    reply: FastifyReply,
    signal: CancellationSignal,
  ): Promise<GenerationOutcome> {
    const { character } = admission;
    let served: { channelId: string; attempts: number } | undefined;
    try {
      const clip = await downloadCharacterClip(this.fetcher, character.url, signal);
      const { value, candidate, attempts, durationMs } = await withChannelFailover(
        admission.candidates,
        { breaker: this.breaker, maxAttempts: this.config.maxAttempts, observe: this.attemptMetrics.observe },
        (chosen) =>
          this.createOn(chosen, { name: character.name, ...clip, window: character.window }, signal),
      );
      this.attemptMetrics.observe(candidate, durationMs);
      served = { channelId: candidate.id, attempts: attempts.length };
      const answer: CharacterAnswer = { id: value.id, name: value.name, created_at: value.createdAt };
      reply
        .code(200)
        .headers(warningHeader(value.warnings))
        .header('content-type', 'application/json; charset=utf-8')
        .send(answer);
      return { httpStatus: 200, endReason: 'completed', ...served };
    } catch (error) {
      const failed = answerFailure(error, request, reply, signal, this.logger);
      return served ? { ...failed, ...served } : failed;
    }
  }

  private createOn(
    candidate: ChannelCandidate,
    clip: CharacterClip,
    signal: CancellationSignal,
  ): Promise<CreatedCharacter> {
    const adapter = videoAdapterFor(candidate.type);
    // Candidates were filtered on it: a type without it is never attempted.
    if (!adapter?.createCharacter) {
      throw new GatewayError('internal', `No character creation on channel ${candidate.id}.`);
    }
    return adapter.createCharacter(clip, candidate.upstreamModel, this.contexts.for(candidate, signal));
  }
}

/** Whether the channel's wire serves the model as video and can create characters. */
function makesCharacters(candidate: ChannelCandidate, model: string): boolean {
  const adapter = videoAdapterFor(candidate.type);
  return adapter?.createCharacter !== undefined && adapter.servesVideoModel(model);
}
