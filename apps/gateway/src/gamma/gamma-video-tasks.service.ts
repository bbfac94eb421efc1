import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { Task } from '@gateway/db';
import { videoAdapterFor, type GammaOfficialEndpoint } from '@gateway/providers';
import { GatewayError } from '../errors/gateway-error';
import type { TaskSubmissionContext } from '../tasks/task-submission.route';
import { OwnedVideoTasks } from '../videos/owned-video-tasks.service';
import { VideoTaskService, type CreatedVideo } from '../videos/video-task.service';
import { toGammaVideoDraft } from './gamma-video-request';

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

  async create(
    endpoint: GammaOfficialEndpoint,
    body: unknown,
    key: ResolvedKey,
    context: TaskSubmissionContext,
  ): Promise<CreatedVideo> {
    let routeWarnings: string[] = [];
    const created = await this.videos.create(
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
      context,
    );
    return { ...created, warnings: [...routeWarnings, ...created.warnings] };
  }

  /** One of the caller's gamma tasks; any other id (another account's, another family's, none) is 1203. */
  find(key: ResolvedKey, taskId: string): Promise<Task> {
    return this.owned.findOfFamily(key, taskId, 'gamma', taskNotFound);
  }
}

function taskNotFound(): GatewayError {
  return new GatewayError('not_found', 'No gamma task of yours has this task_id.', { param: 'task_id' });
}
