import { imageAdapterFor } from '@gateway/providers';
import type {
  GeneratedImage,
  ImageEditCall,
  ImageOperation,
  ImageRequest,
  SynchronousImageAdapter,
} from '@gateway/providers-core';

/**
 * A channel type's synchronous image capability, taken from the registry as the gateway takes it.
 * The adapters are tested in this app, against the simulator over HTTP, because only an app may
 * import both the registry and the simulators.
 */
export function registeredSynchronousImageAdapter(channelType: string): SynchronousImageAdapter {
  const adapter = imageAdapterFor(channelType);
  if (adapter?.mode !== 'synchronous') throw new Error(`${channelType} has no synchronous image capability`);
  return adapter;
}

/** The call the adapter's rules plan for a request, addressed to the model as its upstream id. */
export function plannedImageCall(
  adapter: SynchronousImageAdapter,
  request: ImageRequest,
  operation: ImageOperation = 'generate',
): ImageEditCall {
  const plan = adapter.plan(request, operation);
  if (!plan.ok) throw new Error(`refused: ${plan.message}`);
  return { ...plan.call, upstreamModel: request.model };
}

/** A returned image's bytes, downloaded when the upstream gave a URL. */
export async function generatedImageBytes(image: GeneratedImage): Promise<Buffer> {
  return image.kind === 'bytes' ? image.bytes : Buffer.from(await (await fetch(image.url)).arrayBuffer());
}
