import {
  isJsonObject,
  type ImageInput,
  type ImageOperation,
  type ImageRequest,
} from '@gateway/providers-core';

/** Public ids of asynchronous image jobs start with it (`img_…`); worker-image runs their upstream call. */
export const IMAGE_JOB_TASK_PREFIX = 'img';

/** Whether the task is an asynchronous image job (not a `/bt` task, which worker-image only polls). */
export function isImageJobTask(taskId: string): boolean {
  return taskId.startsWith(`${IMAGE_JOB_TASK_PREFIX}_`);
}

/** An image request and its route, as the job's task row keeps it (`tasks.request`). */
export interface ImageJobRequest {
  operation: ImageOperation;
  request: ImageRequest;
}

type StoredImageInput = string;
type StoredJson = Record<string, unknown>;

/**
 * The request as JSON: input images as `data:` URIs (as `/bt` keeps its inline inputs: the task store
 * replaces them by markers of their length once the task ends) or their URLs. `prompt` stays at the
 * top level, where the neutral task views read it.
 */
export function toStoredImageJob(job: ImageJobRequest): StoredJson {
  const { images, mask, ...fields } = job.request;
  return {
    ...withoutUndefined(fields),
    operation: job.operation,
    images: images.map(toStoredInput),
    ...(mask ? { mask: toStoredInput(mask) } : {}),
  };
}

/** The request back from its row; undefined for a row that no job wrote (or whose inputs are gone). */
export function fromStoredImageJob(stored: unknown): ImageJobRequest | undefined {
  if (!isJsonObject(stored)) return undefined;
  const { operation, images, mask, ...fields } = stored as StoredJson;
  if (operation !== 'generate' && operation !== 'edit') return undefined;
  if (!Array.isArray(images) || typeof fields['model'] !== 'string') return undefined;
  const inputs = images.map(fromStoredInput);
  const storedMask = mask === undefined ? undefined : fromStoredInput(mask);
  if (inputs.some((input) => !input) || storedMask === null) return undefined;
  return {
    operation,
    request: {
      ...(fields as unknown as Omit<ImageRequest, 'images' | 'mask'>),
      images: inputs as ImageInput[],
      ...(storedMask ? { mask: storedMask } : {}),
    },
  };
}

function toStoredInput(input: ImageInput): StoredImageInput {
  return input.kind === 'url'
    ? input.url
    : `data:${input.contentType};base64,${input.bytes.toString('base64')}`;
}

const DATA_URI = /^data:([^;,]+);base64,(.*)$/s;

/** The input back; null when it cannot be read (a length marker the task store left in its place). */
function fromStoredInput(value: unknown): ImageInput | null {
  if (typeof value !== 'string') return null;
  const data = DATA_URI.exec(value);
  if (data) return { kind: 'bytes', contentType: data[1], bytes: Buffer.from(data[2], 'base64') };
  return /^https?:\/\//i.test(value) ? { kind: 'url', url: value } : null;
}

function withoutUndefined(fields: object): StoredJson {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
