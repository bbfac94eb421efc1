import type { GatewayLogger } from '@gateway/observability';
import type { Worker } from 'bullmq';

/**
 * Stops fetching jobs and waits for the active ones for at most `graceMs`, then closes the worker's
 * connections. Jobs still running after the grace period are aborted through their signal and
 * abandoned: their locks expire and BullMQ's stalled-job recovery hands them to another worker,
 * which is safe because every job of this system may run again.
 */
export async function closeWorkerWithin(
  worker: Worker,
  graceMs: number,
  logger: GatewayLogger,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const graceElapsed = new Promise<'elapsed'>((resolve) => {
    timer = setTimeout(() => resolve('elapsed'), graceMs);
  });
  // pause(false) stops the fetch loop and resolves once the active jobs have finished.
  const drained = worker.pause(false).then(() => 'drained' as const);
  const first = await Promise.race([drained, graceElapsed]);
  clearTimeout(timer);
  if (first === 'drained') {
    await worker.close();
    return;
  }
  logger.warn(
    { queue: worker.name, graceMs },
    'jobs still active after the shutdown grace period; leaving them to stalled-job recovery',
  );
  worker.cancelAllJobs('shutdown grace period elapsed');
  await worker.close(true);
  // Should an abandoned job still finish in this process, the pending pause reconnects BullMQ's
  // blocking connection on its way out; drop it again so that nothing keeps the process alive.
  void drained.then(() => worker.disconnect()).catch(() => undefined);
}
