import type { LambdaTaskRequest } from '@gateway/dialects';
import { DEFAULT_LAMBDA_KEY } from '@gateway/simulators';
import { MUSIC_TASK_KIND } from '@gateway/tasks';
import { TaskSeed, type SeededTask } from './task-seed';
import type { WorkerVideoHarness } from './worker-video-harness';

const MODEL = 'lambda-v4';
const ROUTE = '/lambda/submit/{action}';
/** The perCall of the model's price row: a music task holds it and a completion captures it whole. */
const HOLD_MICROS = 30_000n;

/**
 * Music tasks as the gateway's `POST /lambda/submit/music` writes them: a hold of the model's perCall
 * and the row with the lambda call (no price snapshot: a completion captures the hold). Their channel
 * is a lambda one in front of the simulator. Each submission carries its task's id as its `title`, so
 * that the simulator's side can tell which task a submission was for.
 */
export class MusicTaskSeed extends TaskSeed {
  constructor(harness: WorkerVideoHarness) {
    super(harness, 'music', { type: 'lambda', secret: DEFAULT_LAMBDA_KEY, models: [{ model: MODEL }] });
  }

  /** One song of `prompt` (simulator directives go in it). */
  create(prompt: string): Promise<SeededTask> {
    return this.write((taskId) => {
      const request: LambdaTaskRequest = {
        kind: 'lambda',
        action: 'music',
        fields: { prompt, title: taskId },
        continueOf: null,
      };
      return { kind: MUSIC_TASK_KIND, model: MODEL, route: ROUTE, heldMicros: HOLD_MICROS, request };
    });
  }
}
