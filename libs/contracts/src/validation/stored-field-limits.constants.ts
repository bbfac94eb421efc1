/**
 * Caps of the free-form fields a task route keeps on its task row (docs/task-storage.md). The row is
 * kept until the retention sweep removes it, so what a request may leave there is bounded field by
 * field, not by the body limit alone (20 MiB of `metadata` would otherwise be 20 MiB of Postgres).
 */
export const STORED_FIELD_LIMITS = Object.freeze({
  /**
   * A prompt, on every route (video, music, images, `/bt`, theta content text): the longest any
   * family's wire takes (upstreams.md §2.3, 32000 characters). Families with a shorter wire limit
   * refuse finer in their rules.
   */
  promptLength: 32_000,
  /** A title or a list of tags (lambda `title`, `tags`): a line, not a text. */
  labelLength: 1_000,
  /** An identifier a client names (a model, a clip id, a task id). */
  identifierLength: 256,
  /**
   * One pass-through field (`metadata`, alpha `meta_data` and `payload`), serialised as JSON in UTF-8:
   * the row keeps it as sent and the upstream receives it so.
   */
  passThroughBytes: 64 * 1024,
  /** Fields a wire passes through without naming them (lambda, `/bt`, the video styles' extras). */
  unknownFields: 32,
  /** Those fields together: their names and values serialised as JSON, in UTF-8. */
  unknownFieldsBytes: 64 * 1024,
});

/** The cap of a field kept as sent, as its OpenAPI description says it. */
export const PASS_THROUGH_CAP = `At most ${STORED_FIELD_LIMITS.passThroughBytes} bytes as JSON.`;
