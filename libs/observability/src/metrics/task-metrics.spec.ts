import { createWorkerMetrics } from './worker-metrics';
import { TaskMetrics } from './task-metrics';

describe('TaskMetrics', () => {
  it('counts transitions by kind and status, an unnamed kind as unknown', async () => {
    const metrics = createWorkerMetrics();
    const tasks = new TaskMetrics(metrics);

    tasks.entered('video', 'processing');
    tasks.entered('video', 'processing');
    tasks.entered(null, 'failed');
    const text = await metrics.registry.metrics();

    expect(text).toContain('gateway_task_transitions_total{kind="video",status="processing"} 2');
    expect(text).toContain('gateway_task_transitions_total{kind="unknown",status="failed"} 1');
  });

  it('measures the lag from the last pending poll this process saw to the terminal transition', async () => {
    const metrics = createWorkerMetrics();
    const tasks = new TaskMetrics(metrics);

    tasks.polledPending('video_1', 1_000);
    tasks.polledPending('video_1', 4_000);
    tasks.ended('video', 'video_1', 'completed', 5_500);
    // A task whose earlier polls another worker made: counted, but no lag to measure.
    tasks.ended('video', 'video_2', 'completed', 9_000);
    const text = await metrics.registry.metrics();

    expect(text).toContain('gateway_task_transitions_total{kind="video",status="completed"} 2');
    expect(text).toContain('gateway_task_completion_lag_seconds_count{kind="video"} 1');
    expect(text).toContain('gateway_task_completion_lag_seconds_sum{kind="video"} 1.5');
    expect(text).toContain('gateway_task_completion_lag_seconds_bucket{le="1",kind="video"} 0');
    expect(text).toContain('gateway_task_completion_lag_seconds_bucket{le="2",kind="video"} 1');
  });

  it('forgets a task once it ended, and the oldest task beyond its bound', async () => {
    const metrics = createWorkerMetrics();
    const tasks = new TaskMetrics(metrics, 2);

    tasks.polledPending('a', 1_000);
    tasks.polledPending('b', 1_000);
    tasks.polledPending('c', 1_000);
    tasks.polledPending('d', 1_000);
    tasks.forget('d');
    for (const id of ['a', 'b', 'c', 'd']) tasks.ended('music', id, 'completed', 2_000);

    // Only "c" was still remembered: "a" and "b" went past the bound, "d" was forgotten.
    expect(await metrics.registry.metrics()).toContain(
      'gateway_task_completion_lag_seconds_count{kind="music"} 1',
    );
  });
});
