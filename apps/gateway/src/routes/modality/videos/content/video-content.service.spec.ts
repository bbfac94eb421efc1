import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import type {
  SafeFetcher,
  SafeFetchResponse,
  TaskPollResult,
  UpstreamHttpResponse,
  VideoAdapter,
} from '@gateway/providers-core';
import { RequestCancellation } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import type { TaskRuntime } from '../../../../tasks/task-runtime';
import type { TaskRuntimeLoader } from '../../../../tasks/task-runtime.loader';
import { VideoContentService } from './video-content.service';

/** The adapter the channel type of every task here has: a wire that serves the video only. */
let wireAdapter: Partial<VideoAdapter>;
jest.mock('@gateway/providers', () => ({ videoAdapterFor: () => wireAdapter }));

const TASK_ID = 'video_AAAAAAAAAAAAAAAAAAAAAA';
const ACCOUNT = 'account-1';

function taskRow(patch: Partial<Task> = {}): Task {
  return {
    id: TASK_ID,
    kind: 'video',
    accountId: ACCOUNT,
    status: 'completed',
    resultUrl: null,
    upstreamHandle: { videoId: 'v1' },
    ...patch,
  } as Task;
}

function emptyBody(): AsyncIterable<Buffer> {
  return (async function* () {})();
}

function wireAnswer(status: number): UpstreamHttpResponse {
  return {
    status,
    headers: {},
    body: emptyBody(),
    text: async () => '',
    bytes: async () => Buffer.alloc(0),
    dump: async () => undefined,
  };
}

function storeAnswer(status: number): SafeFetchResponse {
  return { status, headers: {}, body: emptyBody() };
}

/** The client is still there: nothing cancels the opening. */
const signal = new RequestCancellation();
const logger = { warn: () => undefined } as unknown as Logger;

function serviceFor(task: Task, poll: TaskPollResult, fetched: string[]): VideoContentService {
  const runtime = {
    store: { findOwned: async () => task, updateWhile: async () => true },
    connectChannel: async () => ({ type: 'compat', context: {} }),
    pollAgain: async () => poll,
  } as unknown as TaskRuntime;
  const loader = { runtime: async () => runtime } as unknown as TaskRuntimeLoader;
  const fetcher: SafeFetcher = {
    fetch: async (url) => {
      fetched.push(url);
      return storeAnswer(410);
    },
  };
  return new VideoContentService(
    loader,
    fetcher,
    { upstreamHeadersTimeoutMs: 1000 } as GatewayConfig,
    logger,
  );
}

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('VideoContentService refusals', () => {
  const pending: TaskPollResult = { state: 'pending' };

  beforeEach(() => {
    wireAdapter = { contentVariants: ['video'], openContent: async () => wireAnswer(404) };
  });

  it('answers a variant the wire does not serve 404 naming the variant, asking nothing upstream', async () => {
    let opened = 0;
    wireAdapter.openContent = async () => {
      opened += 1;
      return wireAnswer(200);
    };
    const fetched: string[] = [];
    const refusal = await refusalOf(
      serviceFor(taskRow(), pending, fetched).opened(
        { accountId: ACCOUNT, taskId: TASK_ID, variant: 'spritesheet', range: undefined },
        signal,
      ),
    );
    expect(refusal).toMatchObject({ httpStatus: 404, param: 'variant' });
    expect(refusal.message).toMatch(/spritesheet/);
    expect({ opened, fetched }).toEqual({ opened: 0, fetched: [] });
  });

  it("answers 404 when the wire's /content no longer has the video", async () => {
    const refusal = await refusalOf(
      serviceFor(taskRow(), pending, []).opened(
        { accountId: ACCOUNT, taskId: TASK_ID, variant: 'video', range: 'bytes=0-1' },
        signal,
      ),
    );
    expect(refusal).toMatchObject({ httpStatus: 404, param: 'variant' });
  });

  it('asks the upstream once for an expired link, and answers 404 when it has no fresh one', async () => {
    const fetched: string[] = [];
    const refusal = await refusalOf(
      serviceFor(taskRow({ resultUrl: 'https://store.example/v.mp4' }), pending, fetched).opened(
        { accountId: ACCOUNT, taskId: TASK_ID, variant: 'video', range: undefined },
        signal,
      ),
    );
    expect(refusal).toMatchObject({ httpStatus: 404 });
    expect(refusal.message).toMatch(/no longer available/);
    expect(fetched).toEqual(['https://store.example/v.mp4']);
  });

  it('fetches a renewed link once and gives up when it has expired too', async () => {
    const fetched: string[] = [];
    const renewed: TaskPollResult = {
      state: 'completed',
      outputs: [{ url: 'https://store.example/v2.mp4' }],
      warnings: [],
    };
    const refusal = await refusalOf(
      serviceFor(taskRow({ resultUrl: 'https://store.example/v1.mp4' }), renewed, fetched).opened(
        { accountId: ACCOUNT, taskId: TASK_ID, variant: 'video', range: undefined },
        signal,
      ),
    );
    expect(refusal).toMatchObject({ httpStatus: 404 });
    expect(fetched).toEqual(['https://store.example/v1.mp4', 'https://store.example/v2.mp4']);
  });

  it.each([
    ['an unfinished video', taskRow({ status: 'processing' }), 409],
    ['an image task', taskRow({ kind: 'image' }), 404],
  ])('refuses %s', async (_name, task, status) => {
    const refusal = await refusalOf(
      serviceFor(task, pending, []).opened(
        { accountId: ACCOUNT, taskId: TASK_ID, variant: 'video', range: undefined },
        signal,
      ),
    );
    expect(refusal.httpStatus).toBe(status);
  });
});
