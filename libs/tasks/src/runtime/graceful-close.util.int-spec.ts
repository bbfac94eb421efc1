import { createLogger } from '@gateway/observability';
import { waitFor } from '@gateway/testing';
import { Queue, Worker, type Job } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { closeWorkerWithin } from './graceful-close.util';

const connection = {
  url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  maxRetriesPerRequest: null,
};
const logger = createLogger({ level: 'silent', name: 'graceful-close-test' });

/** A promise the test settles by hand, to hold a job in flight. */
function gate(): { opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('closeWorkerWithin (Redis)', () => {
  let prefix: string;
  let queue: Queue;
  const workers: Worker[] = [];

  beforeEach(() => {
    prefix = `test-close-${randomBytes(4).toString('hex')}`;
    queue = new Queue('close-test', { connection, prefix });
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.close(true)));
    await queue.obliterate({ force: true });
    await queue.close();
  });

  function startWorker(
    processor: (job: Job, token?: string, signal?: AbortSignal) => Promise<string>,
  ): Worker {
    const worker = new Worker('close-test', processor, {
      connection,
      prefix,
      lockDuration: 1_000,
      stalledInterval: 300,
    });
    worker.on('error', () => undefined);
    workers.push(worker);
    return worker;
  }

  it('lets an active job finish, and fetches nothing new, before it resolves', async () => {
    const inFlight = gate();
    const started: string[] = [];
    const worker = startWorker(async (job) => {
      started.push(job.name);
      await inFlight.opened;
      return `done ${job.name}`;
    });
    const first = await queue.add('first', {});
    await waitFor(async () => (await first.getState()) === 'active', 10_000);

    let closed = false;
    const closing = closeWorkerWithin(worker, 10_000, logger).then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await queue.add('second', {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed).toBe(false);

    inFlight.open();
    await closing;
    expect(await first.getState()).toBe('completed');
    expect(await second.getState()).toBe('waiting');
    expect(started).toEqual(['first']);
  });

  it('gives up after the grace period, aborts the job, and leaves it to stalled-job recovery', async () => {
    const stuck = gate();
    const aborted: string[] = [];
    const worker = startWorker(async (_job, _token, signal) => {
      signal?.addEventListener('abort', () => aborted.push(String(signal.reason)));
      await stuck.opened;
      return 'unreachable';
    });
    const job = await queue.add('stuck', {});
    await waitFor(async () => (await job.getState()) === 'active', 10_000);

    const before = Date.now();
    await closeWorkerWithin(worker, 300, logger);
    expect(Date.now() - before).toBeLessThan(2_000);
    expect(aborted).toEqual(['shutdown grace period elapsed']);

    const rescuer = startWorker(async () => 'recovered');
    await waitFor(async () => (await job.getState()) === 'completed', 10_000);
    const finished = await queue.getJob(job.id ?? '');
    expect(finished?.returnvalue).toBe('recovered');
    await rescuer.close();
    stuck.open();
  });
});
