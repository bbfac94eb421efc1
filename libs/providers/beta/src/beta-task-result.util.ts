import {
  failedForMissingOutput,
  isJsonObject,
  type AdapterLogger,
  type JsonObject,
  type TaskOutput,
  type TaskPending,
  type TaskPollResult,
  type UpstreamFailure,
} from '@gateway/providers-core';
import type { BetaResolutionTier } from '@gateway/dialects';
import { imageContentTypeOf } from './image-content-type.util';

/** `data.status` values that mean the task is still on its way, and where it is (§4.5). */
const PENDING_PHASES: Readonly<Record<string, TaskPending['phase']>> = {
  in_queue: 'queued',
  generating: 'processing',
};

/** Terminal statuses without a result, and why (§4.5: records are kept 12 hours). */
const LOST_TASK_MESSAGES: Readonly<Record<string, string>> = {
  not_found: 'the upstream does not know the task (an unknown id, or a task older than 12 hours)',
  expired: 'the upstream task expired',
};

/** Reads the `data` of a `done` answer: the task's images or video. */
export type BetaDoneReader = (data: JsonObject) => TaskPollResult;

/**
 * The `data` of a successful GetResult answer (§4.4) as a poll result; `readDone` reads a done task's
 * outputs, which differ between image and video tasks. An unknown status is logged and read as pending
 * (the task's deadline bounds it).
 */
export function fromBetaResult(
  data: unknown,
  readDone: BetaDoneReader,
  logger: AdapterLogger,
): TaskPollResult {
  const status = isJsonObject(data) && typeof data.status === 'string' ? data.status : undefined;
  if (status !== undefined && Object.hasOwn(PENDING_PHASES, status)) {
    return { state: 'pending', phase: PENDING_PHASES[status] };
  }
  if (status !== undefined && Object.hasOwn(LOST_TASK_MESSAGES, status)) {
    return { state: 'failed', failure: lostTaskFailure(status, LOST_TASK_MESSAGES[status]) };
  }
  if (status !== 'done' || !isJsonObject(data)) {
    logger.warn('beta task status not in the status table; still pending', { status });
    return { state: 'pending' };
  }
  return readDone(data);
}

/**
 * A done image task carries `binary_data_base64[]` and, when `return_url` was asked, `image_urls[]`;
 * the i-th of each is the same image, so they become one output, priced at the submitted tier.
 */
export function betaImagesDone(tier: BetaResolutionTier): BetaDoneReader {
  return (data) => {
    const outputs = outputsOf(data.binary_data_base64, data.image_urls);
    if (outputs.length === 0) {
      return failedForMissingOutput('done', 'the upstream reported the task done without any image');
    }
    return {
      state: 'completed',
      outputs,
      usage: { images: { count: outputs.length, size: tier } },
      warnings: [],
    };
  };
}

function lostTaskFailure(status: string, message: string): UpstreamFailure {
  return { kind: 'bad_request', retryable: false, message, upstreamCode: status };
}

function outputsOf(base64Images: unknown, urls: unknown): TaskOutput[] {
  const encoded = stringsOf(base64Images);
  const links = stringsOf(urls);
  const outputs: TaskOutput[] = [];
  for (let index = 0; index < Math.max(encoded.length, links.length); index += 1) {
    const bytes = encoded[index] ? Buffer.from(encoded[index], 'base64') : undefined;
    const url = links[index] || undefined;
    if (bytes && bytes.length > 0) {
      const contentType = imageContentTypeOf(bytes);
      outputs.push(url ? { bytes, url, contentType } : { bytes, contentType });
    } else if (url) outputs.push({ url });
  }
  return outputs;
}

/** A list of strings read tolerantly: `null` (no URLs asked for) and non-strings give empty entries. */
function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : '')) : [];
}
