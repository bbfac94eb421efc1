import { Inject, Injectable } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import { PriceBook } from '@gateway/billing';
import { videoAdapterFor } from '@gateway/providers';
import type {
  CancellationSignal,
  CharacterClip,
  CreatedCharacter,
  SafeFetcher,
} from '@gateway/providers-core';
import { ChannelCatalog, type ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import type { DeclaredBody } from '../../../platform/http/declared-body';
import { AdapterContexts } from '../../../pipeline/adapter-contexts';
import { assertModelAllowed, modelNotFound } from '../../../pipeline/model-admission';
import type { GenerationOutcome } from '../../../pipeline/request-log-fields';
import { SAFE_FETCHER } from '../../../platform/infrastructure/tokens';
import { ChannelAttempts } from '../../../pipeline/channel-attempts';
import type {
  GenerationAnswer,
  GenerationCall,
  GenerationSettlement,
  SynchronousGeneration,
} from '../../../pipeline/synchronous-generation';
import { downloadCharacterClip, type DownloadedClip } from './character-clip.download';
import { characterRequestOf } from './character-request';
import type { CharacterRequestDto } from './character-request.dto';
import { VideoCharacterStore } from './video-character.store';

export const CHARACTERS_ROUTE = '/delta/v1/characters';
/**
 * The price name of a character creation: its `perCall` is charged per character created when the
 * operator prices it; unpriced, characters are free (the upstream charges none for them, and the
 * videos made with one are priced as any other).
 */
export const CHARACTER_PRICE_MODEL = 'delta-character';

/** The answer: the upstream's character, in the upstream's own shape (upstreams.md §2.4). */
export interface CharacterAnswer {
  id: string;
  name: string;
  created_at: number;
}

/** What a character is made of, whichever route names it. */
export interface CharacterSource {
  model: string;
  name: string;
  /** The clip with its name (and window): downloaded once admitted, or already uploaded. */
  clip(signal: CancellationSignal): Promise<CharacterClip>;
}

/** A character from a clip the client uploaded (the official SDK's `videos.createCharacter`). */
export interface UploadedCharacter {
  model: string;
  name: string;
  clip: DownloadedClip;
}

/** How a route hands a character request over: read (and refused) inside the pipeline. */
export interface CharacterInput {
  /** The route its hold and log row name. */
  route: string;
  read(): CharacterSource;
}

interface CharacterPlan {
  model: string;
  route: string;
  /** The character's price; 0 when unpriced, and then nothing is held. */
  holdMicros: bigint;
  source: CharacterSource;
  candidates: ChannelCandidate[];
}

/** `POST /delta/v1/characters`: the body names a clip the gateway downloads once the request is admitted. */
export function downloadedCharacterOf(
  body: DeclaredBody<CharacterRequestDto>,
  fetcher: SafeFetcher,
): CharacterInput {
  return {
    route: CHARACTERS_ROUTE,
    read: () => {
      const request = characterRequestOf(body);
      return {
        model: request.model,
        name: request.name,
        clip: async (signal) => ({
          name: request.name,
          ...(await downloadCharacterClip(fetcher, request.url, signal)),
          window: request.window,
        }),
      };
    },
  };
}

/** A character from a clip the client uploaded: nothing to download. */
export function uploadedCharacterOf(route: string, read: () => UploadedCharacter): CharacterInput {
  return {
    route,
    read: () => {
      const uploaded = read();
      return {
        model: uploaded.model,
        name: uploaded.name,
        clip: async () => ({ name: uploaded.name, ...uploaded.clip }),
      };
    },
  };
}

/**
 * `POST /delta/v1/characters` on the generation pipeline: checks the body, chooses among the channels
 * of the delta model whose wire can create characters, holds the character's price when it has one,
 * downloads the clip through the SSRF-safe fetcher, and creates the character upstream (failing over
 * between channels like any generation). The window of `character_timestamps` goes with the clip; a
 * wire that takes the whole clip drops it and says so in `x-gateway-warning`. Refusals before the hold
 * are logged with nothing charged; after it, the hold is released unless a character was made.
 */
@Injectable()
export class CharacterCreationService implements SynchronousGeneration<
  unknown,
  CharacterPlan,
  GenerationOutcome
> {
  readonly holdStyle = 'row-when-priced';
  readonly holdHint = 'Add credit.';

  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly prices: PriceBook,
    private readonly contexts: AdapterContexts,
    private readonly attempts: ChannelAttempts,
    private readonly characters: VideoCharacterStore,
    @Inject(SAFE_FETCHER) readonly fetcher: SafeFetcher,
  ) {}

  holdTtlMs(config: GatewayConfig): number {
    return config.holdTtlMs;
  }

  routeOf(input: CharacterInput): string {
    return input.route;
  }

  /** The key may use the model, a channel can make characters of it; the hold is the price (the pipeline's). */
  plan(input: CharacterInput, call: GenerationCall): CharacterPlan {
    const character = input.read();
    call.model = character.model;
    assertModelAllowed(call.key, character.model);
    const candidates = this.catalog
      .candidatesFor(character.model)
      .filter((candidate) => makesCharacters(candidate, character.model));
    if (candidates.length === 0) throw modelNotFound(character.model);
    return {
      // The hold and the log row name the model the price is read from; the log row the video model.
      model: character.model,
      route: input.route,
      holdMicros: this.prices.priceFor(CHARACTER_PRICE_MODEL)?.perCall ?? 0n,
      source: character,
      candidates,
    };
  }

  async answer(
    plan: CharacterPlan,
    call: GenerationCall,
    signal: CancellationSignal,
  ): Promise<GenerationAnswer<GenerationOutcome>> {
    const clip = await plan.source.clip(signal);
    const { value, candidate, attempts, durationMs } = await this.attempts.run(plan.candidates, (chosen) =>
      this.createOn(chosen, clip, signal),
    );
    // The upstream answers for the channel's key, whoever asks: ownership is the gateway's to keep.
    await this.characters.record({
      id: value.id,
      accountId: call.key.accountId,
      channelId: candidate.id,
      name: value.name,
      createdAt: value.createdAt,
    });
    const answer: CharacterAnswer = { id: value.id, name: value.name, created_at: value.createdAt };
    return {
      kind: 'whole',
      body: answer,
      warnings: value.warnings,
      served: { candidate, durationMs },
      outcome: {
        httpStatus: 200,
        endReason: 'completed',
        channelId: candidate.id,
        attempts: attempts.length,
      },
    };
  }

  settlementOf(plan: CharacterPlan, outcome: GenerationOutcome): GenerationSettlement {
    return { captureMicros: outcome.httpStatus === 200 ? plan.holdMicros : 0n };
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
