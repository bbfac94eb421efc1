import { estimateImageHoldMicros, imageTierPrice, MAX_HOLD_MICROS, type ModelPrice } from '@gateway/billing';
import { GatewayError } from '@gateway/errors';
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

/** How one channel type makes the images: in the same call, or as an upstream task waited for. */
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

/**
 * The type's plan for the request: undefined when the type cannot make images of `operation` (no
 * edits on its wire, or in the model's family), the client's refusal when its rules or its prices
 * refuse the request. The gateway plans with it at admission; worker-image plans again with it when
 * it runs an asynchronous job (plans hold functions, so a job stores the request, not the plan).
 */
export function planImages(
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
