import type { ResolvedKey } from '@gateway/auth';
import { estimateImageHoldMicros, imageTierPrice, MAX_HOLD_MICROS, type ModelPrice } from '@gateway/billing';
import { imageAdapterFor, taskAdapterFor } from '@gateway/providers';
import type {
  AdapterContext,
  ImageAdapter,
  ImageEditCall,
  ImageOperation,
  ImagePriceTier,
  ImageRequest,
  ImageResult,
  TaskAdapter,
  TaskCall,
} from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '../../../platform/errors/gateway-error';
import { assertModelAllowed, modelNotFound } from '../../../pipeline/model-admission';
import { assertModelKind, modelServedElsewhere } from '../../../pipeline/model-kind';

/** How one channel type makes the images: in the same call, or as an upstream task the gateway waits for. */
export type ImageInvocation =
  | { mode: 'synchronous'; call(call: ImageEditCall, context: AdapterContext): Promise<ImageResult> }
  | { mode: 'task'; toTask(call: ImageEditCall, context: AdapterContext): TaskCall; tasks: TaskAdapter };

/** A channel type's answer to the request: the call its channels receive, priced and ready. */
export interface PlannedImages {
  invocation: ImageInvocation;
  call: Omit<ImageEditCall, 'upstreamModel'>;
  priceTier: ImagePriceTier;
  /** The hold this plan needs: the per-call price and n images at its tier. */
  holdMicros: bigint;
  warnings: string[];
}

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

/** The type's way to make the images of `operation`; undefined when it has none. */
function invocationOf(
  adapter: ImageAdapter,
  type: string,
  operation: ImageOperation,
): ImageInvocation | undefined {
  if (adapter.mode === 'synchronous') {
    const call = operation === 'edit' ? adapter.edit?.bind(adapter) : adapter.generate.bind(adapter);
    return call && { mode: 'synchronous', call };
  }
  const tasks = taskAdapterFor(type);
  const toTask =
    operation === 'edit' ? adapter.toEditTask?.bind(adapter) : adapter.toGenerationTask.bind(adapter);
  return tasks && toTask && { mode: 'task', toTask, tasks };
}

/**
 * The type's plan for the request: undefined when the type cannot make images of `operation` (no
 * edits on its wire, or in the model's family), the client's refusal when its rules or its prices
 * refuse the request.
 */
function planImages(
  request: ImageRequest,
  operation: ImageOperation,
  type: string,
  price: ModelPrice,
): PlannedImages | GatewayError | undefined {
  const adapter = imageAdapterFor(type);
  const invocation = adapter && invocationOf(adapter, type, operation);
  if (!adapter || !invocation) return undefined;
  const plan = adapter.plan(request, operation);
  if (!plan.ok) return plan.unsupported ? undefined : GatewayError.invalidRequest(plan.message, plan.param);
  const tierPrice = imageTierPrice(price, plan.priceTier);
  if (!tierPrice.ok) {
    return GatewayError.invalidRequest(
      `The model '${request.model}' has no price for images of tier ${tierPrice.asked}; ` +
        `priced tiers: ${tierPrice.offered.join(', ') || 'none'}.`,
      'size',
    );
  }
  const holdMicros = estimateImageHoldMicros(plan.call.n, plan.priceTier, price);
  if (holdMicros > MAX_HOLD_MICROS) {
    return GatewayError.invalidRequest(
      `${plan.call.n} images of this model would reserve more than ${MAX_HOLD_MICROS} micros; lower n.`,
      'n',
    );
  }
  return { invocation, call: plan.call, priceTier: plan.priceTier, holdMicros, warnings: plan.warnings };
}
