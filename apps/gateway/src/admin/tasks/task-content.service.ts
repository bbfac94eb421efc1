import { Inject, Injectable } from '@nestjs/common';
import type { CancellationSignal, SafeFetcher } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { SAFE_FETCHER } from '../../platform/infrastructure/tokens';
import { isRelayable } from '../../tasks/content/content-relay';
import type { OpenedContent } from '../../tasks/content/opened-content';
import { rangeToRelay } from '../../tasks/content/relayed-range.util';
import { fetchResultUrl } from '../../tasks/content/result-url.fetch';
import { VideoContentService } from '../../routes/modality/videos/content/video-content.service';
import { previewableContentType, taskContentUrl } from './task-content.util';
import { TaskDetailService } from './task-detail.service';

/**
 * Served with every preview: opened on its own, an upstream's file can run nothing on the gateway's
 * origin (where a script could use the operator's session).
 */
const PREVIEW_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; sandbox",
  'cache-control': 'private, no-store',
};

/** What the controller relays: the preview's own headers, then the opened output. */
export interface TaskContentPreview {
  headers: Readonly<Record<string, string>>;
  open(signal: CancellationSignal): Promise<OpenedContent>;
}

/**
 * `GET /admin/tasks/{id}/content`: a completed task's output streamed through the gateway for the
 * console's preview, whatever account made it. A video goes through the video content route's own
 * service (its result URL renewed when expired, or the wire's content endpoint); another task's result
 * URL through the SSRF-safe fetcher. A single byte range is passed on, so a `<video>` can seek.
 */
@Injectable()
export class TaskContentService {
  constructor(
    private readonly details: TaskDetailService,
    private readonly videos: VideoContentService,
    @Inject(SAFE_FETCHER) private readonly fetcher: SafeFetcher,
  ) {}

  /**
   * The preview of a task with an output (409 otherwise): the headers it is served with, and how its
   * bytes are opened once the caller is ready to relay them (cancelled when the client leaves).
   */
  async preview(id: string, range: string | undefined): Promise<TaskContentPreview> {
    const task = await this.details.find(id);
    if (taskContentUrl(task) === null) {
      throw new GatewayError('conflict', `Task ${task.id} is ${task.status} and has no output to show.`);
    }
    if (task.kind === 'video') {
      const asked = { accountId: task.accountId, taskId: task.id, variant: 'video' as const, range };
      return { headers: PREVIEW_HEADERS, open: (signal) => this.videos.opened(asked, signal) };
    }
    const resultUrl = task.resultUrl ?? '';
    return { headers: PREVIEW_HEADERS, open: (signal) => this.openedResult(resultUrl, range, signal) };
  }

  private async openedResult(
    resultUrl: string,
    range: string | undefined,
    signal: CancellationSignal,
  ): Promise<OpenedContent> {
    const content = await fetchResultUrl(this.fetcher, resultUrl, rangeToRelay(range), signal);
    if (!isRelayable(content.status) && content.status !== 416) {
      await content.discard();
      throw new GatewayError(
        'bad_gateway',
        `The upstream answered ${content.status} for this task's output.`,
      );
    }
    const type = content.headers['content-type'];
    const headers = {
      ...content.headers,
      'content-type': previewableContentType(Array.isArray(type) ? type[0] : type),
    };
    return { ...content, headers };
  }
}
