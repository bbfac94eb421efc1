import type { VideoCall, VideoRequest } from '@gateway/providers-core';
import { videoAdapterFor } from '@gateway/providers';
import { toVideoTaskPriceSnapshot } from '@gateway/tasks';
import { TaskSeed, type SeededTask } from './task-seed';
import type { WorkerVideoHarness } from './worker-video-harness';

/** The simulator's default compat key (libs/simulators simulator-options). */
const SIMULATOR_COMPAT_KEY = 'sim-compat-key';
const MODEL = 'delta-2';
const ROUTE = '/v1/videos';
const PER_CALL_MICROS = 10_000n;
const PER_SECOND_MICROS = 25_000n;

/**
 * Video tasks as the gateway's `POST /v1/videos` writes them: the family's rules plan the call, and the
 * row carries it with its price snapshot. Their channel is a compat one in front of the simulator.
 */
export class VideoTaskSeed extends TaskSeed {
  constructor(harness: WorkerVideoHarness) {
    super(harness, 'video', { type: 'compat', secret: SIMULATOR_COMPAT_KEY });
  }

  /**
   * One `delta-2` task of `seconds` at 720p, holding perCall + seconds × perSecond; `enqueue: false` as
   * when Redis was down at create.
   */
  create(prompt: string, seconds = 4, options = { enqueue: true }): Promise<SeededTask> {
    const call = planDeltaCall(prompt, seconds);
    const priceSnapshot = toVideoTaskPriceSnapshot({
      resolution: call.resolution,
      perCallMicros: PER_CALL_MICROS,
      perSecondMicros: PER_SECOND_MICROS,
      heldSeconds: call.seconds,
    });
    const heldMicros = PER_CALL_MICROS + BigInt(call.seconds) * PER_SECOND_MICROS;
    return this.write(
      () => ({ kind: 'video', model: MODEL, route: ROUTE, heldMicros, request: call, priceSnapshot }),
      options,
    );
  }
}

function planDeltaCall(prompt: string, seconds: number): VideoCall {
  const rules = videoAdapterFor('compat');
  if (!rules) throw new Error('compat has no video rules registered');
  const request: VideoRequest = {
    model: MODEL,
    style: 'openai',
    prompt,
    seconds,
    size: '1280x720',
    resolution: '1280x720',
    images: [],
    clips: [],
    subjects: [],
    dimensions: {},
    extras: {},
  };
  const plan = rules.planVideo(request);
  if (!plan.ok) throw new Error(`${MODEL} refused the test request: ${plan.param}: ${plan.message}`);
  return plan.call;
}
