import { VideoResultPlacement, VideoStatusState } from '../../directives';
import { CompatCharacter, CompatVideo } from './compat-video.store';

/** The first-party words (upstreams.md §2.4); relays use synonyms, picked with `words=`. */
const FIRST_PARTY_WORDS: Record<VideoStatusState, string> = {
  queued: 'queued',
  processing: 'in_progress',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A first-party video's bytes stay downloadable from `/content` this long after completion. */
export const CONTENT_LIFETIME_SECONDS = 3600;

export interface VideoObjectView {
  words?: Partial<Record<VideoStatusState, string>>;
  placement: VideoResultPlacement;
  /** The live result link of a completed video on a URL placement. */
  link?: { url: string; expiresAtMs: number };
}

/**
 * The video object create, retrieve and list answer (upstreams.md §2.4). A completed video on a URL
 * placement carries its link where the profile puts it, and `expires_at` is the link's; on
 * `content-only` it is when `/content` stops serving.
 */
export function toVideoObject(video: CompatVideo, view: VideoObjectView): Record<string, unknown> {
  const completed = video.state === 'completed';
  const expiresAt = !completed
    ? null
    : view.link
      ? Math.floor(view.link.expiresAtMs / 1000)
      : (video.completedAt ?? video.createdAt) + CONTENT_LIFETIME_SECONDS;
  const object: Record<string, unknown> = {
    id: video.id,
    object: 'video',
    model: video.model,
    status: view.words?.[video.state] ?? FIRST_PARTY_WORDS[video.state],
    progress: video.progress,
    created_at: video.createdAt,
    completed_at: completed ? video.completedAt : null,
    expires_at: expiresAt,
    prompt: video.prompt,
    seconds: video.seconds,
    size: video.size,
    remixed_from_video_id: video.remixedFromVideoId,
    error: video.error,
  };
  if (completed && view.link) placeLink(object, view.placement, view.link.url);
  return object;
}

function placeLink(object: Record<string, unknown>, placement: VideoResultPlacement, url: string): void {
  switch (placement) {
    case 'video_url':
    case 'url':
      object[placement] = url;
      return;
    case 'output.url':
      object['output'] = { url };
      return;
    case 'metadata.url':
      object['metadata'] = { url };
      return;
    case 'content-only':
      return;
  }
}

export function toDeletedVideo(id: string): Record<string, unknown> {
  return { id, object: 'video.deleted', deleted: true };
}

export function toCharacterObject(character: CompatCharacter): Record<string, unknown> {
  return { id: character.id, object: 'character', name: character.name, created_at: character.createdAt };
}
