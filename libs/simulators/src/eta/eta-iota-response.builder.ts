import { Directives } from '../directives';
import { IotaJob } from './eta-iota-request';

/** One `data[]` item: an image (link or Base64, with its actual size) or a per-item failure. */
export type IotaItem =
  | { url: string; size: string }
  | { b64_json: string; size: string }
  | { error: { code: string; message: string } };

/** Output tokens of one image: one per 256 pixels (project convention, close to the example's count). */
const PIXELS_PER_TOKEN = 256;

export function iotaUsageOf(job: IotaJob, items: IotaItem[], directives: Directives): Record<string, number> {
  const generated = items.filter((item) => !('error' in item)).length;
  const outputTokens =
    directives.usage?.output ?? generated * Math.ceil((job.width * job.height) / PIXELS_PER_TOKEN);
  return { generated_images: generated, output_tokens: outputTokens, total_tokens: outputTokens };
}

/** `{model, created, data[], usage}` (upstreams.md §6.3). */
export function toIotaResponse(
  job: IotaJob,
  created: number,
  items: IotaItem[],
  directives: Directives,
): Record<string, unknown> {
  return { model: job.model, created, data: items, usage: iotaUsageOf(job, items, directives) };
}

/**
 * The stream events of §6.3 (their payloads are not pinned by the wire; these carry the same item
 * fields as the JSON answer, with `type` and `image_index`).
 */
export function toIotaStreamEvents(
  job: IotaJob,
  created: number,
  items: IotaItem[],
  directives: Directives,
): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = items.map((item, index) => ({
    type: 'error' in item ? 'image_generation.partial_failed' : 'image_generation.partial_succeeded',
    model: job.model,
    created,
    image_index: index,
    ...item,
  }));
  events.push({
    type: 'image_generation.completed',
    model: job.model,
    created,
    usage: iotaUsageOf(job, items, directives),
  });
  return events;
}
