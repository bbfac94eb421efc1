import type { ResolvedKey } from '@gateway/auth';
import type { ModelPrice } from '@gateway/billing';
import { orderCandidates, type ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { assertModelAllowed, modelNotFound } from '../../../pipeline/model-admission';
import { assertPriceBills, modelNotServedHere } from '../../../pipeline/model-kind';
import { LAMBDA_CHANNEL_TYPE } from './music-task.constants';
import type { MusicSubmission } from './music-submission';

/** What admission reads of the catalog, the prices and the circuits. */
export interface MusicRouting {
  candidatesFor(model: string): readonly ChannelCandidate[];
  priceFor(model: string): ModelPrice | undefined;
  /** Whether the channel's circuit is closed; asking claims no half-open probe. */
  circuitClosed(channelId: string): boolean;
  /** Whether the channel type can run tasks (its task capability is registered). */
  runsTasks(type: string): boolean;
}

/** Music and lyrics alike are made by the music models, whose route a refusal names. */
const MUSIC_ROUTE = { route: 'POST /lambda/submit/music', kind: 'music' } as const;

/** A music submission the gateway will run: the channel it is pinned to and what it holds. */
export interface AdmittedMusic {
  channel: ChannelCandidate;
  /** The price row's name: `{model}:{action}` when the operator priced the action apart, else the model. */
  priceName: string;
  holdMicros: bigint;
}

/**
 * Everything decided before money moves: the key may use the model, a lambda channel offers it (a
 * model of another kind is a 404 naming its route), and it is priced per task. A task is billed per task: the hold (and, once completed, the capture) is the perCall
 * of the price row `{model}:{action}` (`lambda-v4:lyrics`) when there is one, else of the model's row
 * (`lambda-v4`); an unpriced model is not served. The channel is chosen now, in routing order,
 * preferring closed circuits; a continuation is pinned to the channel that made its clip.
 */
export function admitMusic(
  submission: MusicSubmission,
  key: ResolvedKey,
  routing: MusicRouting,
  continueOn?: { channelId: string },
): AdmittedMusic {
  const { model, action } = submission;
  assertModelAllowed(key, model);
  const candidates = routing
    .candidatesFor(model)
    .filter((candidate) => candidate.type === LAMBDA_CHANNEL_TYPE && routing.runsTasks(candidate.type));
  const combined = `${model}:${action}`;
  const combinedPrice = routing.priceFor(combined);
  const price = combinedPrice ?? routing.priceFor(model);
  if (!price) throw modelNotFound(model);
  if (candidates.length === 0) {
    // A text, image or video model: the refusal names the route that serves it.
    throw modelNotServedHere(MUSIC_ROUTE, model, routing.candidatesFor(model), price);
  }
  // A task is billed per task: a row pricing only tokens, images or seconds would bill it nothing.
  assertPriceBills(price === combinedPrice ? combined : model, price, ['task']);
  const allowed = continueOn
    ? candidates.filter((candidate) => candidate.id === continueOn.channelId)
    : candidates;
  if (allowed.length === 0) {
    throw GatewayError.invalidRequest(
      `The channel that made the clip to continue does not serve '${model}'; continue it with its own model.`,
      'mv',
    );
  }
  const ordered = orderCandidates(allowed);
  const channel = ordered.find((candidate) => routing.circuitClosed(candidate.id)) ?? ordered[0];
  return { channel, priceName: combinedPrice ? combined : model, holdMicros: price.perCall };
}
