import { STORED_FIELD_LIMITS } from '../validation/stored-field-limits.constants';

/** Video task statuses a client sees (gateway interface, "Video task object"). */
export const VIDEO_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;

export type VideoStatusValue = (typeof VIDEO_STATUSES)[number];

export const VIDEO_LIST_ORDERS = ['asc', 'desc'] as const;

/**
 * Per-field limits of the video requests. They bound the gateway's own work (the task row keeps the
 * request, uploads included) and sit above what the families accept: each family's rules refuse
 * finer (seconds it does not offer, more images than its wire takes).
 */
export const VIDEO_REQUEST_LIMITS = Object.freeze({
  /** The one prompt cap of every task route. */
  promptLength: STORED_FIELD_LIMITS.promptLength,
  /** `model`, `size`, `aspect_ratio`, `orientation`, `style`, subject ids. */
  textLength: 256,
  /** A duration (`seconds`, `duration`, `metadata.seconds` …), in whole seconds. */
  maxSeconds: 600,
  /** Input images of one request, whatever the fields they come in. */
  images: 16,
  subjects: 16,
  /** An input image or clip given by http(s) URL. */
  urlLength: 8_192,
});

/**
 * Limits of the multipart body of `POST /v1/videos`: every file is read into memory and kept on the
 * task row as a `data:` URI until the worker submits it, so both one file and all of them together
 * are bounded (past either: 413).
 */
export const VIDEO_UPLOAD_LIMITS = Object.freeze({
  fileBytes: 10 * 1024 * 1024,
  totalBytes: 20 * 1024 * 1024,
  files: VIDEO_REQUEST_LIMITS.images,
  fields: 64,
  fieldBytes: 512 * 1024,
});

/** `GET /v1/videos`: page sizes. */
export const VIDEO_LIST_LIMITS = Object.freeze({ defaultLimit: 20, maxLimit: 100 });
