import {
  RequestCancellation,
  systemClock,
  UpstreamError,
  type JsonHandle,
  type TaskAdapter,
  type TaskAdapterContext,
  type TaskPollResult,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { waitForTask } from './image-task.waiter';

/** An upstream task that answers the scripted poll results in turn, then stays pending. */
class ScriptedTasks implements TaskAdapter {
  readonly polled: JsonHandle[] = [];
  readonly cancelled: JsonHandle[] = [];

  constructor(private readonly results: Array<TaskPollResult | UpstreamError>) {}

  async submit() {
    return { handle: { id: 'upstream-1' } };
  }

  async poll(handle: JsonHandle): Promise<TaskPollResult> {
    this.polled.push(handle);
    const next = this.results.shift() ?? { state: 'pending' };
    if (next instanceof UpstreamError) throw next;
    return next;
  }

  async cancel(handle: JsonHandle): Promise<void> {
    this.cancelled.push(handle);
  }
}

function contextWith(signal?: RequestCancellation): TaskAdapterContext {
  return {
    channel: { baseUrl: 'http://upstream.invalid', credentials: {}, settings: {} },
    http: {} as UpstreamHttpClient,
    clock: systemClock,
    logger: { warn: () => undefined, debug: () => undefined },
    signal,
    submissionKey: 'req_1',
  };
}

const call = { upstreamModel: 'beta-4.0', request: { prompt: 'A fox' } };
const quick = { timeoutMs: 2_000, pollIntervalMs: 1 };
const done: TaskPollResult = {
  state: 'completed',
  outputs: [{ url: 'https://files.example/1.png' }],
  warnings: [],
};

function failure(kind: 'overload' | 'content_policy', retryable: boolean) {
  return { kind, retryable, message: `${kind} upstream` };
}

describe('waitForTask', () => {
  it('polls a pending task until it completes and returns its outputs', async () => {
    const tasks = new ScriptedTasks([{ state: 'pending' }, { state: 'pending', progress: 50 }, done]);
    await expect(waitForTask(tasks, call, contextWith(), quick)).resolves.toBe(done);
    expect(tasks.polled).toHaveLength(3);
    expect(tasks.cancelled).toEqual([]);
  });

  it('polls again after a retryable poll failure instead of giving up on the task', async () => {
    const tasks = new ScriptedTasks([new UpstreamError(failure('overload', true)), done]);
    await expect(waitForTask(tasks, call, contextWith(), quick)).resolves.toBe(done);
  });

  it("turns a failed task into the client's error, which no failover retries", async () => {
    const tasks = new ScriptedTasks([{ state: 'failed', failure: failure('content_policy', false) }]);
    const waited = waitForTask(tasks, call, contextWith(), quick);
    await expect(waited).rejects.toBeInstanceOf(GatewayError);
    await expect(waited).rejects.toMatchObject({ code: 'content_policy' });
    expect(tasks.cancelled).toEqual([]);
  });

  it('answers 504 at the deadline and asks the upstream to cancel the task', async () => {
    // On Jest's clock: on a loaded machine the real one once passed the 30 ms deadline before the
    // first poll.
    jest.useFakeTimers();
    try {
      const tasks = new ScriptedTasks([]);
      const waited = waitForTask(tasks, call, contextWith(), { timeoutMs: 30, pollIntervalMs: 5 });
      const answered = expect(waited).rejects.toMatchObject({ code: 'upstream_timeout', httpStatus: 504 });
      await jest.advanceTimersByTimeAsync(30);
      await answered;
      expect(tasks.polled.length).toBeGreaterThan(0);
      expect(tasks.cancelled).toEqual([{ id: 'upstream-1' }]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('stops waiting when the request is cancelled, and cancels the upstream task', async () => {
    const tasks = new ScriptedTasks([]);
    const cancellation = new RequestCancellation();
    const waited = waitForTask(tasks, call, contextWith(cancellation), {
      timeoutMs: 60_000,
      pollIntervalMs: 20,
    });
    cancellation.abort(new Error('client disconnected'));
    await expect(waited).rejects.toThrow('client disconnected');
    expect(tasks.cancelled).toEqual([{ id: 'upstream-1' }]);
  });

  it('lets a refused submission fail over: it is thrown as the UpstreamError', async () => {
    const tasks = new ScriptedTasks([]);
    tasks.submit = () => Promise.reject(new UpstreamError(failure('overload', true)));
    await expect(waitForTask(tasks, call, contextWith(), quick)).rejects.toBeInstanceOf(UpstreamError);
  });
});
