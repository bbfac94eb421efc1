import type { ResolvedKey } from '@gateway/auth';
import type { ModelPrice } from '@gateway/billing';
import { planImages, type PlannedImages } from '@gateway/images';
import { imageAdapterFor } from '@gateway/providers';
import type { ImageOperation, ImageRequest } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { assertModelAllowed, modelNotFound } from '../../../pipeline/model-admission';
import { assertModelKind, modelServedElsewhere } from '../../../pipeline/model-kind';

export interface ImageAdmission {
  /** The channels serving the model whose type can make images (edits, for an edit), in catalog order. */
  candidates: ChannelCandidate[];
  price: ModelPrice;
  /** Enough for whichever candidate serves the request: the largest of their types' holds. */
  holdMicros: bigint;
  /** The plan of the candidate's type; undefined when its rules refused the request. */
  planFor(candidate: ChannelCandidate): PlannedImages | undefined;
  serves(candidate: ChannelCandidate): boolean;
}

/**
 * Everything decided before money moves: may this key use this model, is it an image model (by its
 * family and its price), which channels can make these images, do their family's rules accept the
 * request (a refusal is the client's 400, naming the field and the values allowed), and what it costs
 * at most. Rules are asked once per channel type.
 */
export function admitImageRequest(
  request: ImageRequest,
  operation: ImageOperation,
  key: ResolvedKey,
  channels: readonly ChannelCandidate[],
  price: ModelPrice | undefined,
): ImageAdmission {
  assertModelAllowed(key, request.model);
  if (!price) throw modelNotFound(request.model);
  assertModelKind('image', request.model, channels, price);
  const imageChannels = channels.filter((candidate) => imageAdapterFor(candidate.type) !== undefined);
  if (imageChannels.length === 0) throw modelNotFound(request.model);
  const plans = new Map<string, PlannedImages | GatewayError | undefined>();
  for (const { type } of imageChannels) {
    if (!plans.has(type)) plans.set(type, planImages(request, operation, type, price));
  }
  const candidates = imageChannels.filter((candidate) => plans.get(candidate.type) !== undefined);
  if (candidates.length === 0) {
    // Neither the model's family nor its channel types have edits: like a model of another kind,
    // this route does not have it.
    throw modelServedElsewhere(
      request.model,
      'makes no image edits: its images are made with POST /v1/images/generations',
    );
  }
  const accepted = [...plans.values()].filter(
    (plan): plan is PlannedImages => plan !== undefined && !(plan instanceof GatewayError),
  );
  // Every type refused: the first refusal in routing order is the client's answer.
  if (accepted.length === 0) throw plans.get(candidates[0].type) as GatewayError;
  const holdMicros = accepted.reduce(
    (largest, plan) => (plan.holdMicros > largest ? plan.holdMicros : largest),
    0n,
  );
  const planFor = (candidate: ChannelCandidate) => {
    const plan = plans.get(candidate.type);
    return plan instanceof GatewayError ? undefined : plan;
  };
  return { candidates, price, holdMicros, planFor, serves: (candidate) => planFor(candidate) !== undefined };
}
