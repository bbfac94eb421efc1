import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { Task } from '@gateway/db';
import { ALPHA_VIDEO_MODELS, planAlphaVideo } from '@gateway/providers';
import type { ByteStrings } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import type { DeclaredBody } from '../../../platform/http/declared-body';
import type { TaskCreationRoute } from '../../../pipeline/task-creation-route';
import type { TaskSubmissionContext } from '../../../tasks/task-submission.route';
import { OwnedVideoTasks } from '../../modality/videos/owned-video-tasks.service';
import type { VideoRequestDraft } from '../../modality/videos/video-request.mapper';
import {
  VideoTaskService,
  type CreatedVideo,
  type VideoPlan,
} from '../../modality/videos/video-task.service';
import { alphaRefusalError } from './alpha-refusal.error';
import { AlphaUrlImages } from './alpha-url-images';
import type { AlphaVideoRequestDto } from './alpha-video-request.dto';
import { toAlphaVideoDraft, urlImagesOf, type AlphaEndpoint } from './alpha-video-request';

/**
 * The alpha official routes on the video task platform: a submission is a video task like any other
 * (VideoTaskService: admission, hold, row, step job), read from the endpoint's body and checked in
 * this order, every refusal before anything is held: the body's shape and the endpoint's inputs, the
 * alpha rules (pure: counts, formats, sizes and dimensions of Base64 images, values), then the URL
 * images' headers (network, so last). The query reads the caller's own alpha tasks.
 */
@Injectable()
export class AlphaVideoTasks {
  constructor(
    private readonly videos: VideoTaskService,
    private readonly owned: OwnedVideoTasks,
    private readonly urlImages: AlphaUrlImages,
  ) {}

  /** The submission as the generation pipeline creates it (GenerationPipeline.createTask). */
  submission(
    endpoint: AlphaEndpoint,
    body: DeclaredBody<AlphaVideoRequestDto>,
    key: ResolvedKey,
    context: TaskSubmissionContext,
  ): TaskCreationRoute<VideoPlan, CreatedVideo> {
    return this.videos.creation(
      {
        route: `/alpha/ent/v2/${endpoint}`,
        read: () => this.read(endpoint, body, context.byteStrings),
        idempotencyKey: context.idempotencyKey,
        scope: {
          route: `POST /alpha/ent/v2/${endpoint}`,
          servesModel: isAlphaModel,
          billedBy: ['videoSecond'],
        },
      },
      key,
    );
  }

  /** One of the caller's alpha tasks; any other id (another account's, another family's, none) is TaskNotFound. */
  find(key: ResolvedKey, taskId: string): Promise<Task> {
    return this.owned.findOfFamily(key, taskId, 'alpha', taskNotFound);
  }

  private async read(
    endpoint: AlphaEndpoint,
    body: DeclaredBody<AlphaVideoRequestDto>,
    byteStrings: ByteStrings | undefined,
  ): Promise<VideoRequestDraft> {
    const draft = { ...toAlphaVideoDraft(endpoint, body), byteStrings };
    // Another family's model (or a text one) is admission's 404 naming its route: no rules, no fetch.
    if (!isAlphaModel(draft.modelName)) return draft;
    // The official routes take the family's model names only (no combined billing names): the rules
    // can run before admission, so that no URL is fetched for a request they refuse.
    const plan = planAlphaVideo({ ...draft.fields, model: draft.modelName, dimensions: {}, byteStrings });
    if (!plan.ok) throw alphaRefusalError(plan);
    await this.urlImages.check(urlImagesOf(draft));
    return draft;
  }
}

function isAlphaModel(model: string): boolean {
  return ALPHA_VIDEO_MODELS.includes(model);
}

function taskNotFound(): GatewayError {
  return new GatewayError('not_found', 'No task of yours has this task_id.', {
    param: 'task_id',
    upstreamCode: 'TaskNotFound',
  });
}
