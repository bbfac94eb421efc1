import { FastifyRequest } from 'fastify';
import { simulatedMp4 } from '../compat/video/compat-video-bytes.util';
import { solidImage } from '../image-bytes.util';
import { resultFileUrl } from '../result-file-url.util';
import { ScriptedTask } from '../scripted-task.store';
import { SimulatorState } from '../simulator-state';
import { simulatedMp3 } from './lambda-audio.util';
import { LambdaClip, LambdaTaskFields } from './lambda-tasks';

/** Where a task stands in one answer: its §9.4 status word, its reason, and how far its clips are. */
export interface LambdaTaskMoment {
  status: string;
  failReason: string;
  progress: number;
  clips: 'submitted' | 'queued' | 'streaming' | 'complete' | 'error';
}

type LambdaTask = ScriptedTask<LambdaTaskFields>;

const IMAGE_SIZE = 512;
const LARGE_IMAGE_SIZE = 1024;

/**
 * A task as `GET /lambda/fetch/{id}` and `POST /lambda/fetch` show it (upstreams.md §9.4). Clips
 * that stream or are complete get fresh result links with each answer (they live `url_ttl=` seconds).
 */
export function lambdaTaskView(
  request: FastifyRequest,
  state: SimulatorState,
  task: LambdaTask,
  moment: LambdaTaskMoment,
): Record<string, unknown> {
  const { submission } = task.fields;
  return {
    task_id: task.id,
    action: submission.action.toUpperCase(),
    status: moment.status,
    fail_reason: moment.failReason,
    submit_time: unixSeconds(task.createdAtMs),
    start_time: task.fields.startedAtMs === undefined ? null : unixSeconds(task.fields.startedAtMs),
    finish_time: task.endedAtMs === undefined ? null : unixSeconds(task.endedAtMs),
    progress: `${Math.round(moment.progress)}%`,
    data:
      submission.action === 'lyrics'
        ? lyricsOf(task, moment)
        : task.fields.clips.map((clip) => clipOf(request, state, task, clip, moment)),
  };
}

function lyricsOf(task: LambdaTask, moment: LambdaTaskMoment): Record<string, unknown> {
  const [entry] = task.fields.clips;
  const done = moment.clips === 'complete';
  return {
    id: entry.id,
    status: moment.clips,
    title: entry.title,
    text: done ? `[Verse]\n${task.fields.submission.prompt}\n\n[Chorus]\n${entry.title}` : '',
  };
}

function clipOf(
  request: FastifyRequest,
  state: SimulatorState,
  task: LambdaTask,
  clip: LambdaClip,
  moment: LambdaTaskMoment,
): Record<string, unknown> {
  const { submission } = task.fields;
  const urls = clipUrls(request, state, task, moment.clips);
  const complete = moment.clips === 'complete';
  return {
    id: clip.id,
    title: clip.title,
    status: moment.clips,
    ...urls,
    major_model_version: submission.model.replace(/^lambda-/, '').replace('-', '.'),
    model_name: submission.model,
    metadata: {
      tags: submission.tags,
      prompt: submission.prompt,
      description_prompt: submission.descriptionPrompt,
      duration: complete ? clip.durationSeconds : null,
      error_type: moment.clips === 'error' ? 'generation_failed' : null,
      error_message: moment.clips === 'error' ? moment.failReason || 'the clip failed' : null,
    },
  };
}

/** A streaming clip has part of its audio; a complete one its audio, video and images; others none. */
function clipUrls(
  request: FastifyRequest,
  state: SimulatorState,
  task: LambdaTask,
  clips: LambdaTaskMoment['clips'],
): Record<string, string> {
  const none = { audio_url: '', video_url: '', image_url: '', image_large_url: '' };
  if (clips !== 'streaming' && clips !== 'complete') return none;
  const lifetime = task.plan.urlLifetimeSeconds;
  const publish = (content: Parameters<typeof state.files.publishContent>[0], extension: string) =>
    resultFileUrl(request, state.files.publishContent(content, { prefix: 'clip', extension }, lifetime));
  const audio = publish(simulatedMp3(clips), 'mp3');
  if (clips === 'streaming') return { ...none, audio_url: audio };
  return {
    audio_url: audio,
    video_url: publish(simulatedMp4(), 'mp4'),
    image_url: resultFileUrl(
      request,
      state.files.publish(solidImage('jpeg', IMAGE_SIZE, IMAGE_SIZE), lifetime),
    ),
    image_large_url: resultFileUrl(
      request,
      state.files.publish(solidImage('jpeg', LARGE_IMAGE_SIZE, LARGE_IMAGE_SIZE), lifetime),
    ),
  };
}

function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
