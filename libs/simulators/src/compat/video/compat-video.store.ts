import { VideoResultPlacement, VideoStatusState } from '../../directives';
import { randomAlphanumeric } from '../../random-id.util';

/** How a video was scripted at create (directives `task_ms`, `polls`, `error_after`, `block`, `url_ttl` …). */
export interface CompatVideoPlan {
  /** Retrieves answered pending before the result. */
  pendingPolls: number;
  /** Not done before this time, whatever the retrieve count. */
  readyAtMs: number;
  /** The video fails (`status: failed` with this error) after `after` pending answers. */
  failure?: { code: string; message: string; after: number };
  /** The output is blocked (`status: failed` with this error) when the video would complete. */
  outputBlock?: { code: string; message: string };
  /** Lifetime of each result link a URL placement hands out. */
  urlLifetimeSeconds: number;
  /** Result links handed out already expired before a live one (`expired_links=`). */
  expiredLinks: number;
  /** Create-time choices a retrieve may override with its own directives. */
  statusWords?: Partial<Record<VideoStatusState, string>>;
  placement?: VideoResultPlacement;
  resultHost?: string;
}

export interface CompatVideo {
  id: string;
  /** The key that created it: only the same key sees it. */
  owner: string;
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  /** Unix seconds. */
  createdAt: number;
  createdAtMs: number;
  remixedFromVideoId: string | null;
  plan: CompatVideoPlan;
  state: VideoStatusState;
  progress: number;
  pendingAnswers: number;
  completedAt: number | null;
  /** Unix ms of the retrieve that first answered `completed`. */
  completedAtMs: number | null;
  error: { code: string; message: string } | null;
  /** The current result link and how many were handed out. */
  link?: { url: string; expiresAtMs: number };
  linksIssued: number;
}

export type CompatVideoNewFields = Pick<
  CompatVideo,
  'owner' | 'model' | 'prompt' | 'seconds' | 'size' | 'remixedFromVideoId' | 'plan'
>;

export interface CompatCharacter {
  id: string;
  owner: string;
  name: string;
  createdAt: number;
}

/** Creates per `Idempotency-Key`, as `GET /__sim/videos/creates` shows them. */
export interface IdempotentCreateCount {
  /** Create requests that carried the key. */
  requests: number;
  /** Videos those requests created (more than 1 would be a duplicate; the store never makes one). */
  created: number;
  videoId: string;
}

export interface VideoCreateSummary {
  /** Create and remix requests received (replays under a known Idempotency-Key included). */
  createRequests: number;
  /** Videos made. */
  created: number;
  /** Requests answered with the video an earlier request under the same key made. */
  replayed: number;
  /** Unfinished videos a DELETE cancelled. */
  cancelled: number;
}

/** When a completed video finished, as `GET /__sim/videos/completions` shows it. */
export interface VideoCompletion {
  id: string;
  /** When its scripted time (`task_ms`) ran out: the moment the upstream finished the work. */
  readyAtMs: number;
  /** The retrieve that first answered `completed` (later than `readyAtMs` by the caller's poll delay). */
  completedAtMs: number;
}

export interface VideoListPage {
  videos: CompatVideo[];
  hasMore: boolean;
}

/** Videos are kept a day; the bound keeps a long benchmark run flat. */
export const VIDEO_RETENTION_MS = 24 * 3600 * 1000;
const CAPACITY = 50_000;
const VIDEO_ID_LENGTH = 24;
const PENDING_PROGRESS_CAP = 99;
const PROGRESS_STEP_WITHOUT_SCRIPT = 10;

/**
 * The videos, characters and idempotency keys of the compat videos wire (upstreams.md §2.4), oldest
 * first (a Map keeps insertion order, so listing is creation order). Idempotency keys outlive
 * `POST /__sim/reset` like the videos they name; only the counts are zeroed.
 */
export class CompatVideoStore {
  private readonly videos = new Map<string, CompatVideo>();
  private readonly characters = new Map<string, CompatCharacter>();
  private readonly videoIdByKey = new Map<string, string>();
  private counts = new Map<string, IdempotentCreateCount>();
  private createRequests = 0;
  private created = 0;
  private cancelled = 0;

  create(fields: CompatVideoNewFields, nowMs = Date.now()): CompatVideo {
    this.forgetOld(nowMs);
    const video: CompatVideo = {
      ...fields,
      id: `video_${randomAlphanumeric(VIDEO_ID_LENGTH)}`,
      createdAt: Math.floor(nowMs / 1000),
      createdAtMs: nowMs,
      state: 'queued',
      progress: 0,
      pendingAnswers: 0,
      completedAt: null,
      completedAtMs: null,
      error: null,
      linksIssued: 0,
    };
    this.videos.set(video.id, video);
    this.created += 1;
    return video;
  }

  /**
   * A create under an `Idempotency-Key`: the owner's earlier video for the key when there is one (no
   * second video), else a new one. Every call counts as a request for the key.
   */
  createIdempotently(
    key: string,
    fields: CompatVideoNewFields,
    nowMs = Date.now(),
  ): { video: CompatVideo; replayed: boolean } {
    this.createRequests += 1;
    const scopedKey = `${fields.owner}\u0000${key}`;
    const earlierId = this.videoIdByKey.get(scopedKey);
    const earlier = earlierId === undefined ? undefined : this.videos.get(earlierId);
    const count = this.counts.get(key) ?? { requests: 0, created: 0, videoId: '' };
    this.counts.set(key, count);
    count.requests += 1;
    if (earlier) return { video: earlier, replayed: true };
    const video = this.create(fields, nowMs);
    this.videoIdByKey.set(scopedKey, video.id);
    count.created += 1;
    count.videoId = video.id;
    return { video, replayed: false };
  }

  /** A create without a key. */
  createOnce(fields: CompatVideoNewFields, nowMs = Date.now()): CompatVideo {
    this.createRequests += 1;
    return this.create(fields, nowMs);
  }

  /** The owner's video, or undefined for an unknown id, another owner's video or a forgotten one. */
  find(owner: string, id: string): CompatVideo | undefined {
    const video = this.videos.get(id);
    return video?.owner === owner ? video : undefined;
  }

  /**
   * Answers one retrieve and moves the video on: `queued` at the first pending answer, `in_progress`
   * after, until both the scripted retrieves and time have passed, then `completed` (or `failed` when
   * its output is blocked). A scripted failure keeps it pending until its turn. Terminal videos stay.
   */
  advance(video: CompatVideo, nowMs = Date.now()): void {
    if (video.state === 'completed' || video.state === 'failed' || video.state === 'cancelled') return;
    const { plan } = video;
    if (plan.failure && video.pendingAnswers >= plan.failure.after) {
      video.state = 'failed';
      video.error = { code: plan.failure.code, message: plan.failure.message };
      return;
    }
    const pending =
      plan.failure !== undefined || video.pendingAnswers < plan.pendingPolls || nowMs < plan.readyAtMs;
    if (!pending && plan.outputBlock) {
      video.state = 'failed';
      video.error = { ...plan.outputBlock };
      return;
    }
    if (!pending) {
      video.state = 'completed';
      video.progress = 100;
      video.completedAt = Math.floor(nowMs / 1000);
      video.completedAtMs = nowMs;
      return;
    }
    video.state = video.pendingAnswers === 0 ? 'queued' : 'processing';
    video.progress = video.state === 'queued' ? 0 : pendingProgress(video, nowMs);
    video.pendingAnswers += 1;
  }

  /**
   * DELETE: an unfinished video is cancelled and stays readable (its status says so); a finished one
   * (or a cancelled one, deleted again) is removed. False for a video the owner does not have.
   */
  delete(owner: string, id: string): boolean {
    const video = this.find(owner, id);
    if (!video) return false;
    if (video.state === 'queued' || video.state === 'processing') {
      video.state = 'cancelled';
      this.cancelled += 1;
    } else {
      this.videos.delete(id);
    }
    return true;
  }

  /** The owner's videos in creation order (`asc`) or newest first (`desc`), after the cursor. */
  list(owner: string, options: { after?: string; limit: number; order: 'asc' | 'desc' }): VideoListPage {
    const owned = [...this.videos.values()].filter((video) => video.owner === owner);
    if (options.order === 'desc') owned.reverse();
    const cursor = options.after === undefined ? -1 : owned.findIndex((video) => video.id === options.after);
    const rest = owned.slice(cursor + 1);
    return { videos: rest.slice(0, options.limit), hasMore: rest.length > options.limit };
  }

  createCharacter(owner: string, name: string, nowMs = Date.now()): CompatCharacter {
    const character = {
      id: `char_${randomAlphanumeric(VIDEO_ID_LENGTH)}`,
      owner,
      name,
      createdAt: Math.floor(nowMs / 1000),
    };
    this.characters.set(character.id, character);
    return character;
  }

  findCharacter(owner: string, id: string): CompatCharacter | undefined {
    const character = this.characters.get(id);
    return character?.owner === owner ? character : undefined;
  }

  /** What `GET /__sim/stats` reports under `videos`. */
  summary(): VideoCreateSummary {
    let replayed = 0;
    for (const count of this.counts.values()) replayed += count.requests - count.created;
    return {
      createRequests: this.createRequests,
      created: this.created,
      replayed,
      cancelled: this.cancelled,
    };
  }

  /** Every completed video's finish times (the benchmark measures the lag to the gateway from them). */
  completions(): VideoCompletion[] {
    const completions: VideoCompletion[] = [];
    for (const video of this.videos.values()) {
      if (video.completedAtMs === null) continue;
      completions.push({ id: video.id, readyAtMs: video.plan.readyAtMs, completedAtMs: video.completedAtMs });
    }
    return completions;
  }

  /** Creates per Idempotency-Key since the last reset; one key's, or every key's. */
  createsByKey(key?: string): Record<string, IdempotentCreateCount> {
    const entries = key === undefined ? [...this.counts] : [[key, this.counts.get(key)] as const];
    const result: Record<string, IdempotentCreateCount> = {};
    for (const [name, count] of entries) if (count) result[name] = { ...count };
    return result;
  }

  resetCounts(): void {
    this.counts = new Map();
    this.createRequests = 0;
    this.created = 0;
    this.cancelled = 0;
  }

  private forgetOld(nowMs: number): void {
    for (const [id, video] of this.videos) {
      if (this.videos.size < CAPACITY && nowMs - video.createdAtMs < VIDEO_RETENTION_MS) break;
      this.videos.delete(id);
    }
  }
}

/**
 * Progress of a pending answer: the smaller of the scripted retrieves and the scripted time already
 * spent, below 100; without either (a video waiting for its scripted failure), 10 per answer.
 */
function pendingProgress(video: CompatVideo, nowMs: number): number {
  const { plan } = video;
  const fractions: number[] = [];
  if (plan.pendingPolls > 0) fractions.push(video.pendingAnswers / plan.pendingPolls);
  const taskMs = plan.readyAtMs - video.createdAtMs;
  if (taskMs > 0) fractions.push((nowMs - video.createdAtMs) / taskMs);
  if (fractions.length === 0)
    return Math.min(PENDING_PROGRESS_CAP, video.pendingAnswers * PROGRESS_STEP_WITHOUT_SCRIPT);
  return Math.min(PENDING_PROGRESS_CAP, Math.max(1, Math.floor(100 * Math.min(...fractions))));
}
