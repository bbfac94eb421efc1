import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { Task } from '@gateway/db';
import { LAMBDA_CLIP_FILES, type LambdaClipFile } from '@gateway/dialects';
import type { CancellationSignal, SafeFetcher } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { SAFE_FETCHER } from '../../../platform/infrastructure/tokens';
import { TaskRuntimeLoader } from '../../../tasks/task-runtime.loader';
import { isRelayable } from '../../../tasks/content/content-relay';
import type { OpenedContent } from '../../../tasks/content/opened-content';
import { rangeToRelay } from '../../../tasks/content/relayed-range.util';
import { fetchResultUrl } from '../../../tasks/content/result-url.fetch';
import { OwnedMusicTasks } from './owned-music-tasks.service';

/** The type of each clip file when its upstream does not say. */
const DEFAULT_CONTENT_TYPES: Readonly<Record<LambdaClipFile, string>> = {
  audio: 'audio/mpeg',
  video: 'video/mp4',
  image: 'image/jpeg',
  image_large: 'image/jpeg',
};

/** What a client asks of `GET /lambda/content/{id}/{clipId}/{file}`. */
export interface MusicContentRequest {
  taskId: string;
  clipId: string;
  file: LambdaClipFile;
  /** The client's `Range` header, as sent. */
  range: string | undefined;
}

/**
 * One file of one clip of a completed music task, streamed through the gateway (the URLs of every
 * fetch answer point here): the upstream is asked once for the task (its clip links do not last,
 * §9.4), then the clip's link is fetched through the SSRF-safe fetcher with the client's byte range,
 * and status and headers describing the bytes are relayed. A clip or file the upstream no longer
 * shows is a 404; a link to a non-public address a 502, never fetched.
 */
@Injectable()
export class MusicContentService {
  constructor(
    private readonly tasks: TaskRuntimeLoader,
    private readonly owned: OwnedMusicTasks,
    @Inject(SAFE_FETCHER) private readonly fetcher: SafeFetcher,
  ) {}

  /**
   * A clip file of the caller's completed music task, opened upstream (from one fresh query of its
   * link); `signal` ends the fetch when the client leaves. Its default type is the file's.
   */
  async opened(
    key: ResolvedKey,
    asked: MusicContentRequest,
    signal: CancellationSignal,
  ): Promise<OpenedContent> {
    const task = await this.owned.find(key, asked.taskId);
    if (task.status !== 'completed') {
      throw new GatewayError(
        'conflict',
        `Music task '${task.id}' is ${task.status}: its clips come once it completed.`,
      );
    }
    const url = await this.upstreamUrlOf(task, asked);
    const content = await fetchResultUrl(this.fetcher, url, rangeToRelay(asked.range), signal);
    if (!isRelayable(content.status) && content.status !== 416) {
      await content.discard();
      throw new GatewayError('bad_gateway', `The upstream's clip link answered ${content.status}.`);
    }
    return withDefaultType(content, DEFAULT_CONTENT_TYPES[asked.file]);
  }

  /** The clip file's current upstream link, from one fresh query of the task. */
  private async upstreamUrlOf(task: Task, asked: MusicContentRequest): Promise<string> {
    const runtime = await this.tasks.runtime();
    let polled;
    try {
      polled = await runtime.pollAgain(task);
    } catch (error) {
      throw new GatewayError('bad_gateway', 'The upstream could not be asked for a fresh clip link.', {
        cause: error,
      });
    }
    const outputs = polled.state === 'completed' ? polled.outputs : [];
    const clip = outputs.find((output) => output.detail?.id === asked.clipId)?.detail;
    const url = clip?.[LAMBDA_CLIP_FILES[asked.file]];
    if (typeof url !== 'string' || url === '') {
      throw new GatewayError(
        'not_found',
        `The upstream no longer has the ${asked.file} of clip '${asked.clipId}'.`,
        {
          param: 'clipId',
        },
      );
    }
    return url;
  }
}

function withDefaultType(content: OpenedContent, contentType: string): OpenedContent {
  if (content.headers['content-type'] !== undefined) return content;
  return { ...content, headers: { ...content.headers, 'content-type': contentType } };
}
