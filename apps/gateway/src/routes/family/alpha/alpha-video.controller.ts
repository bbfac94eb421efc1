import { Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { warningHeader } from '../../../pipeline/warning-header';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { RETRY_AFTER_HEADER_DOC } from '../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../tasks/task-poll-hint.service';
import {
  callerKeyOf,
  TaskSubmissionRoute,
  taskSubmissionContextOf,
} from '../../../tasks/task-submission.route';
import {
  alphaCreationsAnswer,
  alphaSubmissionAnswer,
  AlphaCreationsView,
  AlphaSubmissionView,
} from './alpha-answers';
import type { AlphaVideoRequestDto } from './alpha-video-request.dto';
import { ALPHA_VIDEO_BODY, type AlphaEndpoint } from './alpha-video-request';
import { AlphaVideoTasks } from './alpha-video-tasks.service';

/** §3.7: the whole body of a submission is at most 20 MB; past it, 413 before the body is read. */
export const ALPHA_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

const SUBMISSION_DESCRIPTION =
  'Answers at once with `{task_id, status, created_at}`. Refused before anything is held, in the ' +
  'family envelope `{code, reason, message, metadata: {trace_id}}` naming the field and the rule: the ' +
  'model rules of upstreams §3.3, at most 3 images per subject and 7 in all, each png/jpeg/jpg/webp, at ' +
  'least 128×128, aspect 1:4–4:1, at most 50 MB (a URL image: its first bytes are fetched and its header ' +
  'read), a body over 20 MB (413).';
const SUBMISSION_ROUTE = {
  description: SUBMISSION_DESCRIPTION,
  body: ALPHA_VIDEO_BODY,
  answer: AlphaSubmissionView,
  bodyLimitBytes: ALPHA_BODY_LIMIT_BYTES,
  holdsImagesAsBytes: true,
};

/**
 * The alpha official API (upstreams.md §3.2; interface "Alpha official video routes") in front of the
 * gateway's alpha channels. Clients authenticate with their gateway key (Bearer); answers and errors
 * are the family's shapes. A task made here is a video task like any other: `/v1/videos/{id}` reads
 * it too, and its creation downloads from `/v1/videos/{id}/content`.
 */
@InferenceRoutes({ path: 'alpha/ent/v2', dialect: 'alpha', tag: 'alpha' })
export class AlphaVideoController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly tasks: AlphaVideoTasks,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @TaskSubmissionRoute('text2video', {
    ...SUBMISSION_ROUTE,
    summary: 'Text to video: `prompt`, no images',
  })
  text2video(
    @RouteBody() body: DeclaredBody<AlphaVideoRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AlphaSubmissionView> {
    return this.submit('text2video', body, request, reply);
  }

  @TaskSubmissionRoute('img2video', {
    ...SUBMISSION_ROUTE,
    summary: 'Image to video: `images` holds the start frame',
  })
  img2video(
    @RouteBody() body: DeclaredBody<AlphaVideoRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AlphaSubmissionView> {
    return this.submit('img2video', body, request, reply);
  }

  @TaskSubmissionRoute('start-end2video', {
    ...SUBMISSION_ROUTE,
    summary: 'Start and end frames to video: `images` holds the first and the last frame',
  })
  startEnd2video(
    @RouteBody() body: DeclaredBody<AlphaVideoRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AlphaSubmissionView> {
    return this.submit('start-end2video', body, request, reply);
  }

  @TaskSubmissionRoute('reference2video', {
    ...SUBMISSION_ROUTE,
    summary: 'Reference to video: `subjects[]` (or 1–7 reference `images`), cited in the prompt as `@<id>`',
  })
  reference2video(
    @RouteBody() body: DeclaredBody<AlphaVideoRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AlphaSubmissionView> {
    return this.submit('reference2video', body, request, reply);
  }

  @Get('task/:task_id/creations')
  @ApiOperation({
    summary: 'One of your alpha tasks: its status and, once completed, its creation',
    description: "Another account's task, or an id that is no alpha task: 404 `TaskNotFound`.",
  })
  @ApiParam({ name: 'task_id', description: 'The `task_id` the submission answered.' })
  @ApiOkResponse({ type: AlphaCreationsView, headers: RETRY_AFTER_HEADER_DOC })
  async creations(
    @Param('task_id') taskId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AlphaCreationsView> {
    const task = await this.tasks.find(callerKeyOf(request), taskId);
    reply.headers(await this.pollHints.headersFor([task]));
    return alphaCreationsAnswer(task, publicBaseOf(this.config.publicBaseUrl, request));
  }

  private async submit(
    endpoint: AlphaEndpoint,
    body: DeclaredBody<AlphaVideoRequestDto>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<AlphaSubmissionView> {
    const submission = this.tasks.submission(
      endpoint,
      body,
      callerKeyOf(request),
      taskSubmissionContextOf(request),
    );
    const { task, warnings } = await this.pipeline.createTask(submission, request, reply);
    reply.headers(warningHeader(warnings));
    return alphaSubmissionAnswer(task);
  }
}
