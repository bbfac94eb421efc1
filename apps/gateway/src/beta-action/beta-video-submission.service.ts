import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import { betaSuccess, type BetaAnswerContext } from '../errors/beta-envelope.renderer';
import { VideoTaskService } from '../videos/video-task.service';
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

  async submit(
    key: ResolvedKey,
    body: unknown,
    context: BetaAnswerContext,
    idempotencyKey?: string,
  ): Promise<BetaAnswer> {
    try {
      const { task, warnings } = await this.videos.create(
        {
          route: BETA_ROUTE,
          read: () => toBetaVideoDraft(body),
          idempotencyKey,
          taskIdPrefix: BETA_ROUTE_TASK_PREFIX,
        },
        key,
        { requestId: context.requestId, startedAt: context.startedAt },
      );
      return { httpStatus: 200, body: betaSuccess({ task_id: task.id }, context), warnings };
    } catch (error) {
      throw inBetaVideoTerms(error);
    }
  }
}
