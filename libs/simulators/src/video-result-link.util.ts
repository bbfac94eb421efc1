import { FastifyRequest } from 'fastify';
import { simulatedMp4 } from './compat/video/compat-video-bytes.util';
import { resultFileUrl } from './result-file-url.util';
import { ResultFileStore } from './result-file.store';

/** A result link and the time its file stops being served. */
export interface ExpiringLink {
  url: string;
  expiresAtMs: number;
}

/** What a video task keeps of the links to its result. */
export interface IssuedVideoLinks {
  /** The current link, kept until it expires. */
  link?: ExpiringLink;
  linksIssued: number;
}

/** How a task's result links were scripted at its create. */
export interface VideoLinkScript {
  /** `expired_links=`: this many links are handed out already expired before a live one. */
  expiredLinks: number;
  /** Lifetime of every other link. */
  urlLifetimeSeconds: number;
  /** `result_host=`: the links point at another host (SSRF tests). */
  resultHost?: string;
}

/**
 * The link to a video task's result MP4: the current one while it lives, else a freshly published
 * file, so a query after a link expired gets a new one (and a client that re-queries is tested).
 */
export function currentVideoLink(
  request: FastifyRequest,
  files: ResultFileStore,
  issued: IssuedVideoLinks,
  script: VideoLinkScript,
  nowMs = Date.now(),
): ExpiringLink {
  if (issued.link && nowMs < issued.link.expiresAtMs) return issued.link;
  const lifetimeSeconds = issued.linksIssued < script.expiredLinks ? 0 : script.urlLifetimeSeconds;
  const name = files.publishContent(
    simulatedMp4(),
    { prefix: 'video', extension: 'mp4' },
    lifetimeSeconds,
    nowMs,
  );
  issued.linksIssued += 1;
  issued.link = {
    url: resultFileUrl(request, name, script.resultHost),
    expiresAtMs: nowMs + lifetimeSeconds * 1000,
  };
  return issued.link;
}
