import { isJsonObject } from '../json-object.util';
import type { SerialisableObject } from '../json-value';
import type { VideoImage, VideoRequest } from './video-adapter';

/** Where the duration came from, for a refusal: the unified style calls the field `duration`. */
export function secondsParamOf(request: VideoRequest): string {
  return request.style === 'unified' ? 'duration' : 'seconds';
}

/** `metadata.output_config` when it is an object; undefined otherwise. */
export function metadataOutputConfigOf(
  metadata: SerialisableObject | undefined,
): SerialisableObject | undefined {
  const outputConfig = metadata?.output_config;
  return isJsonObject(outputConfig) ? (outputConfig as SerialisableObject) : undefined;
}

/**
 * A warning for each field the client sent that the wire has no place for: every family extra left in
 * `extras`, and every `metadata` key outside `readMetadataKeys` (the ones the rules read). A family
 * names them rather than drop them silently.
 */
export function unreadFieldWarnings(
  model: string,
  extras: SerialisableObject,
  metadata: SerialisableObject,
  readMetadataKeys: ReadonlySet<string>,
): string[] {
  const ignored = [
    ...Object.keys(extras),
    ...Object.keys(metadata)
      .filter((key) => !readMetadataKeys.has(key))
      .map((key) => `metadata.${key}`),
  ];
  return ignored.map((field) => `${field} is ignored: ${model} has no such option`);
}

/**
 * The request field an input image came from, for a refusal: its source, indexed where the source is
 * a list (`images[1]`) or gave several images.
 */
export function videoImageParamOf(all: readonly VideoImage[], image: VideoImage): string {
  const sameSource = all.filter((other) => other.source === image.source);
  const listed = image.source === 'images' || sameSource.length > 1;
  return listed ? `${image.source}[${sameSource.indexOf(image)}]` : image.source;
}
