import {
  isJsonObject,
  type JsonValue,
  type SerialisableObject,
  type VideoCall,
} from '@gateway/providers-core';
import { GAMMA_MODEL_NAME } from './gamma-wire.constants';
import { gammaModelVersionOf } from './video/gamma-models';

/**
 * The `CreateAigcVideoTask` fields the family rules decided (upstreams.md §5.4), stored in the
 * planned call's `extras.submission`, every key as the wire spells it. The adapter adds what belongs
 * to the channel and the task: `SubAppId`, `ModelName`, `ModelVersion` and `SessionId`.
 */
export interface GammaSubmission {
  Prompt?: string;
  NegativePrompt?: string;
  FileInfos?: SerialisableObject[];
  LastFrameUrl?: string;
  OutputConfig: SerialisableObject;
  SceneType?: string;
  ExtInfo?: string;
}

export function gammaSubmissionOf(call: VideoCall): SerialisableObject {
  const submission = call.extras.submission;
  if (!isJsonObject(submission)) throw new TypeError('a gamma video call needs its extras.submission');
  return submission as SerialisableObject;
}

/**
 * The body of `CreateAigcVideoTask`: the channel's SubAppId (a JSON number), the family's model name,
 * the version of the channel's upstream model, the planned fields, and the task's own id as the
 * idempotency key `SessionId`.
 */
export function gammaCreateBodyOf(
  call: VideoCall,
  upstreamModel: string,
  subAppId: string,
  sessionId: string,
): SerialisableObject {
  return {
    SubAppId: Number(subAppId),
    ModelName: GAMMA_MODEL_NAME,
    ModelVersion: gammaModelVersionOf(upstreamModel),
    ...gammaSubmissionOf(call),
    SessionId: sessionId,
  };
}

/** The submission as the call's `extras` stores it. */
export function gammaExtrasOf(submission: GammaSubmission): SerialisableObject {
  // An interface has no index signature, so it is not a JsonValue to the compiler; its fields all are.
  return { submission: submission as unknown as JsonValue };
}
