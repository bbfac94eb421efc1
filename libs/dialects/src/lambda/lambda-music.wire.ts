import { isJsonObject, type JsonHandle, type SerialisableObject } from '@gateway/providers-core';

/**
 * The lambda music wire (upstreams.md §9) as both of its sides speak it: the gateway's client-facing
 * `/lambda/*` routes and the `lambda` channel type. Both read the actions, the task request a row
 * stores and the §9.4 vocabulary from here, so the two sides cannot drift apart.
 */
export const LAMBDA_ACTIONS = ['music', 'lyrics'] as const;
export type LambdaAction = (typeof LAMBDA_ACTIONS)[number];

/** The `code` of every successful answer; any other code is an error described by `message` (§9.3). */
export const LAMBDA_SUCCESS_CODE = 'success';

/** The model a submission without `mv` is made with (§9.3). */
export const LAMBDA_DEFAULT_MODEL = 'lambda-v3-0';

/** The action a path segment names, case-insensitively (`music`, `MUSIC`, `Lyrics` …); undefined otherwise. */
export function lambdaActionOf(segment: string): LambdaAction | undefined {
  const action = segment.toLowerCase();
  return (LAMBDA_ACTIONS as readonly string[]).includes(action) ? (action as LambdaAction) : undefined;
}

/** The task status words of §9.4. */
export const LAMBDA_STATUS = {
  notStarted: 'NOT_START',
  submitted: 'SUBMITTED',
  queued: 'QUEUED',
  inProgress: 'IN_PROGRESS',
  success: 'SUCCESS',
  failure: 'FAILURE',
  unknown: 'UNKNOWN',
} as const;

/** The clip files a music clip names (§9.4), by the name the gateway's content route gives them. */
export const LAMBDA_CLIP_FILES = {
  audio: 'audio_url',
  video: 'video_url',
  image: 'image_url',
  image_large: 'image_large_url',
} as const;

export type LambdaClipFile = keyof typeof LAMBDA_CLIP_FILES;

export function isLambdaClipFile(value: string): value is LambdaClipFile {
  return Object.hasOwn(LAMBDA_CLIP_FILES, value);
}

/**
 * A lambda task as its row stores it and the lambda task adapter submits it: the §9.3 fields as the
 * client sent them, except `mv` (the row's model, mapped by the channel) and `task_id` (a continuation
 * names the gateway's task; the upstream's is in that task's handle, `continueOf`).
 */
export interface LambdaTaskRequest extends SerialisableObject {
  kind: 'lambda';
  action: LambdaAction;
  fields: SerialisableObject;
  continueOf: JsonHandle | null;
}

export function isLambdaTaskRequest(value: unknown): value is LambdaTaskRequest {
  return (
    isJsonObject(value) &&
    value.kind === 'lambda' &&
    typeof value.action === 'string' &&
    (LAMBDA_ACTIONS as readonly string[]).includes(value.action) &&
    isJsonObject(value.fields) &&
    value.continueOf !== undefined
  );
}
