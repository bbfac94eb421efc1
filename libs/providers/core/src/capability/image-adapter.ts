import type { AdapterContext } from '../adapter-context';
import type { JsonObject } from '../json-object.util';
import type { UpstreamFailure } from '../upstream-error';
import type { Usage } from '../usage';
import type { TaskCall } from './task-adapter';

/** How the client wants its images: as URLs, or as Base64 (`b64_json` and `base64` on the wire). */
export type ImageResponseFormat = 'url' | 'b64';

/** An image the client sent: bytes (an upload, or Base64 already decoded) or a URL it gave. */
export type ImageInput = { kind: 'bytes'; bytes: Buffer; contentType: string } | { kind: 'url'; url: string };

/**
 * The size asked for, after the gateway resolved the client's `size`, preset or ratio against the
 * family's rules: exact pixels, or a tier the wire names itself (`1k`, `2k`, `4k`, `hd` …).
 */
export type ImageSize = ({ kind: 'pixels' } & Pixels) | { kind: 'tier'; tier: string };

/** A size in pixels. */
export interface Pixels {
  width: number;
  height: number;
}

export interface ImageGenerationCall {
  /** Upstream model id (after the channel's model mapping). */
  upstreamModel: string;
  /**
   * The model name whose family rules planned the call, set by the plan; undefined for a model the
   * rules do not know. One wire can differ by family (a field one family refuses, another needs)
   * while a channel maps the model to any upstream id, so an adapter reads the family from here.
   */
  family?: string;
  prompt: string;
  /** Images wanted, at least 1, already within the family's bound. */
  n: number;
  size?: ImageSize;
  /** `16:9`, `1:1` …, for wires that take a ratio instead of (or beside) pixels. */
  aspectRatio?: string;
  quality?: string;
  style?: string;
  background?: string;
  /** `false` disables the watermark explicitly; undefined keeps the channel's default and sends nothing. */
  watermark?: boolean;
  /**
   * What the client wants back. An adapter asks the upstream for it where the wire lets it choose;
   * the gateway converts whatever comes back (downloads a URL, stores bytes), so adapters never do.
   */
  responseFormat: ImageResponseFormat;
  /** Reference images (image to image); empty when there are none. */
  images: ImageInput[];
}

export interface ImageEditCall extends ImageGenerationCall {
  /** Where the image may change (its transparent pixels), for wires that take a mask. */
  mask?: ImageInput;
}

/** One image produced: bytes with their type, or the upstream's URL (which expires). */
export type GeneratedImage = (
  { kind: 'bytes'; bytes: Buffer; contentType: string } | { kind: 'url'; url: string }
) & {
  /** The prompt as the upstream rewrote it, when it says. */
  revisedPrompt?: string;
};

/** An item of a group request that the upstream could not produce while others succeeded. */
export interface ImageItemError {
  /** Position of the item in the upstream's answer. */
  index: number;
  failure: UpstreamFailure;
}

export interface ImageResult {
  images: GeneratedImage[];
  /** Group mode only: the failed items. Only `images` are billed; an answer with none is an error. */
  itemErrors: ImageItemError[];
  /** `images.count` is what was returned; the tiers are those the upstream actually produced. */
  usage: Usage;
  /** The channel's own metadata, handed to the client as it came. */
  metadata?: JsonObject;
  /** What the adapter changed or dropped on the way, for the client's warning header. */
  warnings: string[];
}

/**
 * The client's image request, whatever route carried it, before any family rule was applied: the
 * fields of the OpenAI-style generations and edits bodies (`beta-*`'s `ratio` and `resolution`
 * included), with `n` as sent and the response format already read.
 */
export interface ImageRequest {
  /** The model the client named; family rules are keyed by it (the interface spec's names). */
  model: string;
  prompt: string;
  /** As sent: undefined or 0 mean 1, the plan applies the family's bound. */
  n?: number;
  size?: string;
  quality?: string;
  style?: string;
  background?: string;
  watermark?: boolean;
  responseFormat: ImageResponseFormat;
  /** Reference images (generations) or the images to edit (edits); empty when there are none. */
  images: ImageInput[];
  mask?: ImageInput;
  /** Aspect ratio (`16:9` …), for families that take one. */
  ratio?: string;
  /** Resolution tier (`1k`, `2k`, `4k`), for families that take one. */
  resolution?: string;
}

export type ImageOperation = 'generate' | 'edit';

/** The tier an image is priced by, looked up in the model's per-image price table. */
export interface ImagePriceTier {
  size?: string;
  quality?: string;
}

/**
 * A request checked against its family's rules: the call every channel of the type will receive
 * (the upstream model is filled in per channel), the tier the hold is priced at, and what the rules
 * changed (a size fallback, a dropped field) for the client's warning header; or the refusal, a 400
 * naming the field and the allowed values.
 */
export type ImagePlan =
  | { ok: true; call: Omit<ImageEditCall, 'upstreamModel'>; priceTier: ImagePriceTier; warnings: string[] }
  | {
      ok: false;
      param: string;
      message: string;
      /**
       * The family has no such operation (a model without edits on a wire that has them): the route
       * does not serve the model at all, which the gateway answers like a wire without the operation.
       */
      unsupported?: true;
    };

/** The family rules of a channel type's image models. Pure: it runs before any channel is chosen. */
export interface ImageRules {
  /** Applies the rules of `request.model`'s family; models the type knows no rules for pass as sent. */
  plan(request: ImageRequest, operation: ImageOperation): ImagePlan;
}

/**
 * The image capability. A wire that answers in the same call is `synchronous`. An asynchronous wire
 * (submit, then ask) is `task`: its adapter only translates the image request into a task call, and
 * the type's task capability submits and polls while the gateway waits within the request, bounded
 * by its own time limit: the adapter never waits. Members are methods for the reason given on
 * TextAdapter.
 */
export type ImageAdapter<Credentials = unknown, Settings = unknown> =
  SynchronousImageAdapter<Credentials, Settings> | TaskImageAdapter<Credentials, Settings>;

export interface SynchronousImageAdapter<Credentials = unknown, Settings = unknown> extends ImageRules {
  readonly mode: 'synchronous';
  /** Throws UpstreamError for any failure of the whole call (a content-policy block included). */
  generate(call: ImageGenerationCall, context: AdapterContext<Credentials, Settings>): Promise<ImageResult>;
  /** Absent where the wire has no edits. */
  edit?(call: ImageEditCall, context: AdapterContext<Credentials, Settings>): Promise<ImageResult>;
}

export interface TaskImageAdapter<Credentials = unknown, Settings = unknown> extends ImageRules {
  readonly mode: 'task';
  /** The task call that generates these images on this wire; the task's outputs are the images. */
  toGenerationTask(call: ImageGenerationCall, context: AdapterContext<Credentials, Settings>): TaskCall;
  /** Absent where the wire has no edits. */
  toEditTask?(call: ImageEditCall, context: AdapterContext<Credentials, Settings>): TaskCall;
}
