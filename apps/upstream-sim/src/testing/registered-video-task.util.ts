import { taskAdapterFor, videoAdapterFor } from '@gateway/providers';
import type {
  AdapterContext,
  JsonHandle,
  TaskAdapter,
  TaskAdapterContext,
  TaskPollResult,
  VideoCall,
  VideoRequest,
  VideoRules,
} from '@gateway/providers-core';
import { acceptedVideoPlan } from '@gateway/providers-core/testing';

/**
 * A channel type's video rules and task adapter, taken from the registry as the gateway and the task
 * worker take them (only an app may import both the registry and the simulators).
 */
export function registeredVideoTask(channelType: string): { rules: VideoRules; task: TaskAdapter } {
  const rules = videoAdapterFor(channelType);
  const task = taskAdapterFor(channelType);
  if (!rules || !task) throw new Error(`${channelType} has no video and task capabilities`);
  return { rules, task };
}

/** The call a family's rules plan for a request; a refusal fails the test. */
export function plannedVideoCall(rules: VideoRules, request: VideoRequest): VideoCall {
  return acceptedVideoPlan(rules.planVideo(request)).call;
}

/** An adapter context as the task worker builds it: the channel's, plus the task's submission key. */
export function taskContext(context: AdapterContext, submissionKey = 'video_sim_task'): TaskAdapterContext {
  return { ...context, submissionKey };
}

/**
 * Polls as the step processor would (without its delays: the simulator is scripted by poll count)
 * until the task settles, returning every pending answer's phase and the outcome.
 */
export async function pollUntilSettled(
  task: TaskAdapter,
  handle: JsonHandle,
  context: TaskAdapterContext,
  maxPolls = 20,
): Promise<{ phases: Array<string | undefined>; outcome: Exclude<TaskPollResult, { state: 'pending' }> }> {
  const phases: Array<string | undefined> = [];
  for (let poll = 0; poll < maxPolls; poll += 1) {
    const result = await task.poll(handle, context);
    if (result.state !== 'pending') return { phases, outcome: result };
    phases.push(result.phase);
  }
  throw new Error(`the task was still pending after ${maxPolls} polls`);
}

/** The first output URL of an outcome the test expects completed; any other outcome fails the test. */
export function completedOutputUrl(outcome: TaskPollResult): string {
  if (outcome.state !== 'completed' || !outcome.outputs[0]?.url) throw new Error('no result URL');
  return outcome.outputs[0].url;
}

/** Checks that a result URL downloads as an MP4: served as `video/mp4`, an `ftyp` box first. */
export async function expectMp4Download(url: string): Promise<void> {
  const video = await downloadedVideo(url);
  expect(video).toMatchObject({ status: 200, contentType: 'video/mp4' });
  expect(video.bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
}

/** The bytes behind a result URL, as the gateway's content route would fetch them. */
export async function downloadedVideo(
  url: string,
): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}
