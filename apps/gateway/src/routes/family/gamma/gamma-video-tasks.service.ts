import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { Task } from '@gateway/db';
import { videoAdapterFor, type GammaOfficialEndpoint } from '@gateway/providers';
import { GatewayError } from '@gateway/errors';
import type { DeclaredBody } from '../../../platform/http/declared-body';
import type { TaskCreationRoute } from '../../../pipeline/task-creation-route';
import type { TaskSubmissionContext } from '../../../tasks/task-submission.route';
import { OwnedVideoTasks } from '../../modality/videos/owned-video-tasks.service';
import {
  VideoTaskService,
  type CreatedVideo,
  type VideoPlan,
} from '../../modality/videos/video-task.service';
import { toGammaVideoDraft } from './gamma-video-request';
import type { GammaVideoRequestDto } from './gamma-video-request.dto';

/** The channel type whose video rules know the gamma models, whichever name the body used. */
const GAMMA_TYPE = 'gamma';

/**
 * The gamma official-compatible routes on the video task platform: a create is a video task like any
 * other (VideoTaskService: admission by the gamma rules, hold, row, step job), read from the §5.8
 * body; the route's own warnings (fields no gamma channel takes) join the rules'. The query reads the
 * caller's own gamma tasks.
 */
@Injectable()
export class GammaVideoTasks {
  constructor(
    private readonly videos: VideoTaskService,
    private readonly owned: OwnedVideoTasks,
  ) {}

  /** The creation as the generation pipeline runs it (GenerationPipeline.createTask). */
  creation(
    endpoint: GammaOfficialEndpoint,
    body: DeclaredBody<GammaVideoRequestDto>,
    key: ResolvedKey,
    context: TaskSubmissionContext,
  ): TaskCreationRoute<VideoPlan, CreatedVideo> {
    let routeWarnings: string[] = [];
    const creation = this.videos.creation(
      {
        route: `/gamma/v1/videos/${endpoint}`,
        read: () => {
          const { draft, warnings } = toGammaVideoDraft(endpoint, body);
          routeWarnings = warnings;
          return draft;
        },
        idempotencyKey: context.idempotencyKey,
        scope: {
          route: `POST /gamma/v1/videos/${endpoint}`,
          servesModel: (model) => videoAdapterFor(GAMMA_TYPE)?.servesVideoModel(model) === true,
          billedBy: ['videoSecond'],
        },
      },
      key,
    );
    return {
      ...creation,
      create: async (plan) => {
        const { created, taskId } = await creation.create(plan);
        return { created: { ...created, warnings: [...routeWarnings, ...created.warnings] }, taskId };
      },
    };
  }

  /** One of the caller's gamma tasks; any other id (another account's, another family's, none) is 1203. */
  find(key: ResolvedKey, taskId: string): Promise<Task> {
    return this.owned.findOfFamily(key, taskId, 'gamma', taskNotFound);
  }
}

function taskNotFound(): GatewayError {
  return new GatewayError('not_found', 'No gamma task of yours has this task_id.', { param: 'task_id' });
}
