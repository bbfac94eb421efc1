import type { TaskResultView } from '@gateway/contracts';
import type { Task } from '@gateway/db';
import { fromStoredJobResult, isImageJobTask } from '@gateway/images';
import { UpstreamError } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { storedFileUrl } from '../../platform/stored-files/stored-file-url.util';
import { musicClipUrls } from '../../routes/modality/music/music-task.view';
import { videoContentUrl } from '../../routes/modality/videos/video-object';
import type { TaskRuntime } from '../task-runtime';

/**
 * What a completed task produced, as the gateway serves it. A video is its content route; an image
 * job's images are the gateway's stored files. Music clips
 * and `/bt` images are not stored by the gateway: as their own queries do, the upstream is asked again
 * (it keeps them for a while), and only the gateway's clip URLs, or the images' bytes, are shown;
 * never an upstream URL.
 */
export async function resolveTaskResult(
  runtime: TaskRuntime,
  task: Task,
  baseUrl: string,
): Promise<TaskResultView> {
  if (task.kind === 'video') return { urls: [videoContentUrl(baseUrl, task.id)] };
  // An image job's images are kept in the object store (worker-image stored them).
  if (isImageJobTask(task.id)) {
    const images = fromStoredJobResult(task.upstreamHandle)?.images ?? [];
    return { urls: images.map((image) => storedFileUrl(baseUrl, image.objectId)) };
  }
  if (task.kind !== 'music' && task.kind !== 'image') return { urls: [] };
  const polled = await runtime.pollAgain(task).catch((error: unknown) => {
    if (!(error instanceof UpstreamError)) throw error;
    throw new GatewayError('bad_gateway', 'The upstream could not be asked for the outputs of this task.', {
      cause: error,
    });
  });
  const outputs = polled.state === 'completed' ? polled.outputs : [];
  if (task.kind === 'music') return { urls: musicClipUrls(outputs, task.id, baseUrl) };
  return {
    urls: [],
    images_base64: outputs.flatMap((output) => (output.bytes ? [output.bytes.toString('base64')] : [])),
  };
}
