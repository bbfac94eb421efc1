import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { UnrecoverableError, type Job } from 'bullmq';
import { QUEUE_NAMES } from '../queue-names';
import { QueueRuntime } from '../runtime/queue-runtime.service';
import { MusicBatchPoller, type MusicPollCycle } from './music-batch.poller';

/** The scheduler (and job name) of the music poll cycle. */
export const MUSIC_POLL_JOB_NAME = 'poll-music-tasks';
export const MUSIC_POLL_INTERVAL = Symbol('MUSIC_POLL_INTERVAL');
const CYCLE_JOB_OPTIONS = { removeOnComplete: true, removeOnFail: 100 };

/**
 * Runs the music poll cycle on its own queue every MUSIC_POLL_INTERVAL_MS: one job per interval
 * whatever the number of worker-video processes (the scheduler is upserted idempotently, at start and
 * after a Redis reconnection), one cycle at a time in each process.
 */
@Injectable()
export class MusicPollConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queues: QueueRuntime,
    private readonly poller: MusicBatchPoller,
    @Inject(MUSIC_POLL_INTERVAL) private readonly intervalMs: number,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.keepJobScheduler(QUEUE_NAMES.musicPolls, MUSIC_POLL_JOB_NAME, {
      everyMs: this.intervalMs,
      opts: CYCLE_JOB_OPTIONS,
    });
    this.queues.consume<unknown, MusicPollCycle>(QUEUE_NAMES.musicPolls, (job) => this.handle(job), {
      concurrency: 1,
    });
  }

  private handle(job: Job<unknown>): Promise<MusicPollCycle> {
    if (job.name !== MUSIC_POLL_JOB_NAME) {
      throw new UnrecoverableError(`unexpected job ${job.name} on ${QUEUE_NAMES.musicPolls}`);
    }
    return this.poller.runCycle();
  }
}
