import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { BetaSubmitTaskDto } from '@gateway/contracts';
import { betaSuccess, type BetaAnswerContext } from '../../../platform/errors/beta-envelope.renderer';
import { isReplayed, type TaskCreationRoute } from '../../../pipeline/task-creation-route';
import type { DeclaredBody } from '../../../platform/http/declared-body';
import {
  VideoTaskService,
  type CreatedVideo,
  type VideoPlan,
} from '../../modality/videos/video-task.service';
import type { BetaAnswer } from './beta-answer';
import { BETA_ROUTE, BETA_ROUTE_TASK_PREFIX } from './beta-submission.service';
import { inBetaVideoTerms, toBetaVideoDraft } from './beta-video-submission';

/**
 * `CVSync2AsyncSubmitTask` with a video `req_key`: a video task like any other (VideoTaskService:
 * admission by the beta rules, the hold at the model's video prices, the row of kind `video`, the
 * step job worker-video runs), under a `/bt` id so that `CVSync2AsyncGetResult` finds it. A signed
 * channel and a relay (`sk-`) channel both run it: the beta task adapter speaks either.
 */
@Injectable()
export class BetaVideoSubmissionService {
  constructor(private readonly videos: VideoTaskService) {}

  /** The submission as the generation pipeline creates it; refusals name the /bt body's fields. */
  creation(
    key: ResolvedKey,
    body: DeclaredBody<BetaSubmitTaskDto>,
    context: BetaAnswerContext,
    idempotencyKey?: string,
  ): TaskCreationRoute<VideoPlan, BetaAnswer> {
    const creation = this.videos.creation(
      {
        route: BETA_ROUTE,
        read: () => toBetaVideoDraft(body),
        idempotencyKey,
        taskIdPrefix: BETA_ROUTE_TASK_PREFIX,
      },
      key,
    );
    const answerOf = ({ task, warnings }: CreatedVideo): BetaAnswer => ({
      httpStatus: 200,
      body: betaSuccess({ task_id: task.id }, context),
      warnings,
    });
    return {
      ...creation,
      plan: async () => {
        const planned = await creation.plan().catch(rethrowInBetaVideoTerms);
        return isReplayed(planned) ? { replayed: answerOf(planned.replayed) } : planned;
      },
      create: async (plan) => {
        const { created, taskId } = await creation.create(plan).catch(rethrowInBetaVideoTerms);
        return { created: answerOf(created), taskId };
      },
    };
  }
}

function rethrowInBetaVideoTerms(error: unknown): never {
  throw inBetaVideoTerms(error);
}
