import type { AdapterContext } from '../adapter-context';
import type { ByteStrings } from '../byte-strings';
import type { UpstreamHttpResponse } from '../http-client';
import type { JsonHandle, JsonValue, SerialisableObject } from '../json-value';

/**
 * How the client submitted: some families' constraint tables differ by style (interface spec,
 * "Video parameter constraints by style"). `official` is a family's own route (`/alpha/ent/v2/*`,
 * `/gamma/v1/videos/*`).
 */
export type VideoSubmissionStyle = 'openai' | 'unified' | 'official';

/** What an input image is for. */
export type VideoImageRole = 'first_frame' | 'last_frame' | 'reference';

/**
 * An input image as a task row stores it: the URL the client gave, or the bytes it sent (a multipart
 * upload, a Base64 string) as a `data:<type>;base64,` URI, so that the worker that submits has them.
 */
export interface VideoImage {
  role: VideoImageRole;
  url: string;
  /** The request field it came from (`image`, `images`, `input_reference`, `metadata.last_frame_url` …). */
  source: string;
}

/** A reference video or audio clip (theta 2.0 content, alpha audio …), by URL. */
export interface VideoClip {
  type: 'video' | 'audio';
  url: string;
  role?: string;
  /** The request field it came from (`metadata.video_url`, `video_list[0].video_url` …), for a refusal. */
  source?: string;
}

/** A reference-to-video subject: an id the prompt cites as `@<id>`, its images, an optional voice. */
export interface VideoSubject {
  id: string;
  images: string[];
  voiceId?: string;
}

/** What a video task does; the family's rules decide it from the inputs. */
export type VideoMode = 'text' | 'first_frame' | 'first_last' | 'reference' | 'remix';

/**
 * The client's video request, whatever route carried it, after the gateway read the style's fields
 * and applied the interface's precedence rules, before any family rule. Image roles are the generic
 * defaults (unified style: one image first frame, two first and last; `image` first frame,
 * `metadata.last_frame_url` last frame, `images[]` references); a family's rules may reassign them.
 */
export interface VideoRequest {
  /** The base model (a combined billing name already resolved into it and `dimensions`). */
  model: string;
  style: VideoSubmissionStyle;
  prompt?: string;
  /** Duration by the precedence rule (seconds, duration, metadata.seconds|duration|video_duration); undefined when none was given. */
  seconds?: number;
  /** Resolution by the precedence rule (metadata.output_config.resolution, else size), as sent. */
  resolution?: string;
  /** Top-level `size` as sent. */
  size?: string;
  aspectRatio?: string;
  images: VideoImage[];
  clips: VideoClip[];
  subjects: VideoSubject[];
  /** Price dimensions a combined billing model name carried (`resolution: 1080p`, `offpeak: true` …). */
  dimensions: Readonly<Record<string, string>>;
  /** `metadata` as sent, for wires that have a place for it. */
  metadata?: SerialisableObject;
  /** Family extras as sent (delta `watermark`, `private`, `style`, `storyboard`; alpha's fields …). */
  extras: SerialisableObject;
  /** A remix or extension: the finished task's upstream handle (the gateway pins its channel). */
  remixOf?: JsonHandle;
  /** Where the images that stand as tokens are read: those the gateway holds as the body's bytes. */
  byteStrings?: ByteStrings;
}

/**
 * A video request checked against its family's rules: what the task row stores as its request and the
 * task adapter submits. `kind` tells a type's task adapter (which may also run image tasks) that this
 * is a video. Serialisable: it travels through the task row.
 */
export interface VideoCall extends SerialisableObject {
  kind: 'video';
  /** The family whose rules planned it (an adapter's wire may differ by family). */
  family: string;
  mode: VideoMode;
  prompt: string;
  /** Seconds asked of the upstream and held for (a fixed-duration family's fixed value). */
  seconds: number;
  /** The price tier of a second (`720p`, `1080p` …), lower case; absent where the model has one price. */
  resolution: string | null;
  /** The size on the wire (`1280x720`, `720P` …) where the family takes one. */
  size: string | null;
  aspectRatio: string | null;
  images: Array<{ role: VideoImageRole; url: string }>;
  clips: Array<{ type: 'video' | 'audio'; url: string; role: string | null }>;
  subjects: Array<{ id: string; images: string[]; voiceId: string | null }>;
  metadata: SerialisableObject | null;
  /** Family fields the adapter sends as they are (after the rules' checks). */
  extras: SerialisableObject;
  remixOf: JsonValue;
}

/**
 * The rules' verdict: the call to store and submit and what the hold prices (seconds at a resolution
 * tier), with what the rules changed for the client's warning header; or a refusal naming the field
 * and the allowed values (a 400 in the client's dialect; 413 for a body or image too large).
 */
export type VideoPlan =
  | { ok: true; call: VideoCall; warnings: string[] }
  | { ok: false; param: string; message: string; httpStatus?: 400 | 413 };

/** The family rules of a channel type's video models. Pure: it runs before any channel is chosen or money moves. */
export interface VideoRules {
  /** Whether `model` (a base model name) is one of this type's video families. */
  servesVideoModel(model: string): boolean;
  planVideo(request: VideoRequest): VideoPlan;
}

export type VideoContentVariant = 'video' | 'thumbnail' | 'spritesheet';

/** A clip for a character (delta), fetched by the gateway through the SSRF-safe fetcher. */
export interface CharacterClip {
  name: string;
  bytes: Buffer;
  contentType: string;
  /** The client's `character_timestamps` window, seconds; wires that take it send it. */
  window?: { start: number; end: number };
}

export interface CreatedCharacter {
  id: string;
  name: string;
  /** Unix seconds. */
  createdAt: number;
  /** What became of the window on this wire (sent, or dropped because the wire takes the whole clip). */
  warnings: string[];
}

/**
 * The video capability: the family rules, and what a wire offers beyond the task capability's submit
 * and poll (which run video calls: a type's task adapter recognises a VideoCall by `kind`). Members
 * are methods for the reason given on TextAdapter.
 */
export interface VideoAdapter<Credentials = unknown, Settings = unknown> extends VideoRules {
  /** Which variants `openContent` serves; absent or empty: the wire serves bytes only through result URLs. */
  readonly contentVariants?: readonly VideoContentVariant[];
  /**
   * Opens a finished task's bytes on a wire that serves them itself (compat `/content`), passing the
   * client's Range header on. The caller relays status, headers and body, and must consume or dump it.
   */
  openContent?(
    handle: JsonHandle,
    request: { variant: VideoContentVariant; range?: string },
    context: AdapterContext<Credentials, Settings>,
  ): Promise<UpstreamHttpResponse>;
  /** Creates a character from a clip (delta); absent where the wire has none. */
  createCharacter?(
    clip: CharacterClip,
    upstreamModel: string,
    context: AdapterContext<Credentials, Settings>,
  ): Promise<CreatedCharacter>;
}

/** Whether a task row's request is a video call (types whose task adapter runs image tasks too). */
export function isVideoCall(request: SerialisableObject): request is VideoCall {
  return request.kind === 'video';
}
