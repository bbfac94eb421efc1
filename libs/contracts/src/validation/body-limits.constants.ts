/**
 * Bounds on the shape of any JSON body, whatever the route: they bound the work a request can cause
 * (parsing, validation, translation), where the byte limit alone does not. 20 MiB of `{},` are
 * 6.9 million objects: about 440 MB of heap once parsed, and seconds of validation per request.
 */
export interface BodyShapeLimits {
  /** Containers inside containers: the body itself is level 1. */
  maxDepth: number;
  /** Items of one array, or fields of one object. */
  maxEntries: number;
  /** JSON values in the whole body (objects, arrays, strings, numbers, literals). */
  maxValues: number;
}

/**
 * Well above what a real request holds (10,000 conversation turns of a few fields each), well below
 * what costs a replica noticeable time: parsing 200,000 small values takes a few milliseconds, as
 * much as parsing one 20 MiB image.
 */
export const BODY_SHAPE_LIMITS: BodyShapeLimits = Object.freeze({
  maxDepth: 64,
  maxEntries: 10_000,
  maxValues: 200_000,
});
