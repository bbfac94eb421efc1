import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import { videoAdapterFor } from '@gateway/providers';
import {
  UpstreamError,
  type AdapterContext,
  type CancellationSignal,
  type JsonHandle,
  type SafeFetcher,
  type TaskPollResult,
  type UpstreamHttpResponse,
  type VideoAdapter,
  type VideoContentVariant,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { toClientError } from '@gateway/routing';
import { CONFIG, LOGGER, SAFE_FETCHER } from '../../../../platform/infrastructure/tokens';
import type { TaskRuntime } from '../../../../tasks/task-runtime';
import { TaskRuntimeLoader } from '../../../../tasks/task-runtime.loader';
import { isVideoTaskId } from '../video-object';
import { taskStoreUnavailable } from '../../../../tasks/task-store-unavailable';
import { isRelayable } from '../../../../tasks/content/content-relay';
import type { OpenedContent } from '../../../../tasks/content/opened-content';
import { rangeToRelay } from '../../../../tasks/content/relayed-range.util';
import { fetchResultUrl } from '../../../../tasks/content/result-url.fetch';

/** What an object store answers for a link that no longer works: a signed link past its time, a file removed. */
const EXPIRED_LINK_STATUSES: ReadonlySet<number> = new Set([403, 404, 410]);

/** What a client asks of `GET /v1/videos/{id}/content`. */
export interface VideoContentRequest {
  accountId: string;
  taskId: string;
  variant: VideoContentVariant;
  /** The client's `Range` header, as sent. */
  range: string | undefined;
}

/**
 * A finished video's bytes, streamed through the gateway from where the upstream keeps them (video
 * contract, decision 8):
 * - the `video` variant of a task whose upstream gave a result URL (relays, upstreams.md §2.4, read in
 *   the wire's order before its `/content` fallback): that URL, through the SSRF-safe fetcher; a link
 *   the store answers 403, 404 or 410 for (expired) is renewed by asking the upstream once more and
 *   fetched once again;
 * - otherwise the wire's own content endpoint (VideoAdapter.openContent), for the variants it serves;
 * - a video with neither asks the upstream once for a result URL; a variant the wire lacks is a 404
 *   naming it.
 * The client's single byte range is passed on; status (200, 206, 416) and the headers describing the
 * bytes are relayed. The client going away ends the upstream fetch.
 */
@Injectable()
export class VideoContentService {
  constructor(
    private readonly tasks: TaskRuntimeLoader,
    @Inject(SAFE_FETCHER) private readonly fetcher: SafeFetcher,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The caller's completed video's bytes, opened upstream; `signal` ends the fetch when the client leaves. */
  async opened(asked: VideoContentRequest, signal: CancellationSignal): Promise<OpenedContent> {
    const runtime = await this.tasks.runtime();
    const task = await completedVideoOf(runtime, asked);
    try {
      return await this.open(runtime, task, asked.variant, rangeToRelay(asked.range), signal);
    } catch (error) {
      if (!signal.aborted && error instanceof GatewayError && error.httpStatus >= 500) {
        this.logger.warn({ err: error.options.cause ?? error, taskId: task.id }, 'video content not relayed');
      }
      throw error;
    }
  }

  private async open(
    runtime: TaskRuntime,
    task: Task,
    variant: VideoContentVariant,
    range: string | undefined,
    signal: CancellationSignal,
  ): Promise<OpenedContent> {
    if (variant === 'video' && task.resultUrl !== null) {
      return this.openResultUrl(runtime, task, task.resultUrl, range, signal);
    }
    const channel = await channelOf(runtime, task);
    const adapter = videoAdapterFor(channel.type);
    if (adapter?.contentVariants?.includes(variant)) {
      return this.openFromWire(adapter, task, variant, range, { ...channel.context, signal });
    }
    if (variant === 'video') return this.openResultUrl(runtime, task, undefined, range, signal);
    throw new GatewayError('not_found', `This video has no ${variant}: its upstream serves none.`, {
      param: 'variant',
    });
  }

  private async openFromWire(
    adapter: VideoAdapter,
    task: Task,
    variant: VideoContentVariant,
    range: string | undefined,
    context: AdapterContext,
  ): Promise<OpenedContent> {
    if (!adapter.openContent || task.upstreamHandle === null) {
      throw new GatewayError('bad_gateway', 'The upstream keeps no content for this video.');
    }
    let response: UpstreamHttpResponse;
    try {
      response = await adapter.openContent(
        task.upstreamHandle as JsonHandle,
        { variant, range },
        { ...context, headersTimeoutMs: this.config.upstreamHeadersTimeoutMs },
      );
    } catch (error) {
      throw error instanceof UpstreamError ? toClientError(error.failure) : error;
    }
    const { status, headers, body } = response;
    if (isRelayable(status) || status === 416)
      return { status, headers, body, discard: () => response.dump() };
    await response.dump();
    const what = variant === 'video' ? 'content' : variant;
    if (status === 404 || status === 410) {
      throw new GatewayError('not_found', `The upstream no longer has this video's ${what}.`, {
        param: 'variant',
      });
    }
    throw new GatewayError('bad_gateway', `The upstream answered ${status} for this video's ${what}.`);
  }

  /** The result URL (when the row has one), renewed once when it has expired or when there is none. */
  private async openResultUrl(
    runtime: TaskRuntime,
    task: Task,
    url: string | undefined,
    range: string | undefined,
    signal: CancellationSignal,
  ): Promise<OpenedContent> {
    if (url !== undefined) {
      const content = await fetchResultUrl(this.fetcher, url, range, signal);
      if (!EXPIRED_LINK_STATUSES.has(content.status)) return relayableOrRefused(content);
      await content.discard();
    }
    const renewed = await this.renewedResultUrl(runtime, task);
    const content = await fetchResultUrl(this.fetcher, renewed, range, signal);
    if (EXPIRED_LINK_STATUSES.has(content.status)) {
      await content.discard();
      throw noLongerAvailable();
    }
    return relayableOrRefused(content);
  }

  /** Asks the upstream once more for the finished task's result URL, and keeps it for the next download. */
  private async renewedResultUrl(runtime: TaskRuntime, task: Task): Promise<string> {
    let polled: TaskPollResult;
    try {
      polled = await runtime.pollAgain(task);
    } catch (error) {
      throw new GatewayError(
        'bad_gateway',
        'The upstream could not be asked for a fresh link to the video.',
        {
          cause: error,
        },
      );
    }
    const url = polled.state === 'completed' ? polled.outputs.find((output) => output.url)?.url : undefined;
    if (url === undefined) throw noLongerAvailable();
    await runtime.store.updateWhile(task.id, 'completed', { resultUrl: url }).catch((error: unknown) => {
      this.logger.warn({ err: error, taskId: task.id }, 'renewed result URL not stored');
    });
    return url;
  }
}

/** The caller's finished video task: 404 for another account's, a deleted or unknown one; 409 until it completes. */
async function completedVideoOf(runtime: TaskRuntime, asked: VideoContentRequest): Promise<Task> {
  const task = isVideoTaskId(asked.taskId)
    ? await runtime.store.findOwned(asked.taskId, asked.accountId).catch(taskStoreUnavailable)
    : null;
  if (!task || task.kind !== 'video') {
    throw new GatewayError('not_found', `No video found with id '${asked.taskId}'.`);
  }
  if (task.status !== 'completed') {
    throw new GatewayError(
      'conflict',
      `Video '${task.id}' is ${task.status}: its content can be downloaded once it is completed.`,
    );
  }
  return task;
}

/** The task's channel, to ask its wire for the content; a channel removed since is the gateway's 502. */
async function channelOf(
  runtime: TaskRuntime,
  task: Task,
): Promise<{ type: string; context: AdapterContext }> {
  try {
    return await runtime.connectChannel(task);
  } catch (error) {
    throw new GatewayError('bad_gateway', 'The channel that made this video can no longer be reached.', {
      cause: error,
    });
  }
}

async function relayableOrRefused(content: OpenedContent): Promise<OpenedContent> {
  if (isRelayable(content.status) || content.status === 416) return content;
  await content.discard();
  throw new GatewayError('bad_gateway', `The upstream's result URL answered ${content.status}.`);
}

function noLongerAvailable(): GatewayError {
  return new GatewayError('not_found', "The video's content is no longer available upstream.");
}
