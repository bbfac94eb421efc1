import { Directives, SimErrorClass } from '../../directives';
import { scriptedErrorOf } from '../../scripted-error';
import { CompatVideoPlan } from './compat-video.store';

/** Result links live an hour unless `url_ttl=` says otherwise (relay-defined, upstreams.md §2.4). */
export const VIDEO_URL_LIFETIME_SECONDS = 3600;

/** `error.code` of a video that fails later, by scripted class; `code=` replaces it. */
const FAILURE_CODES: Record<SimErrorClass, string> = {
  content_policy: 'moderation_blocked',
  overload: 'server_error',
  rate_limit: 'rate_limit_exceeded',
  insufficient_balance: 'insufficient_quota',
  bad_request: 'invalid_value',
  auth: 'invalid_api_key',
  timeout: 'timeout',
};

const FAILURE_MESSAGES: Record<SimErrorClass, string> = {
  content_policy: 'The generated video was blocked by our moderation system.',
  overload: 'Video generation failed due to an internal error.',
  rate_limit: 'Video generation was rate limited.',
  insufficient_balance: 'You exceeded your current quota.',
  bad_request: 'Video generation failed: the request could not be processed.',
  auth: 'The key that created this video is no longer valid.',
  timeout: 'Video generation timed out.',
};

/**
 * The life a create's directives script: `task_ms` and `polls` delay completion; `error=<class>`
 * with `error_after=<n>` fails it after n pending retrieves; `block=output` fails it with
 * `moderation_blocked` when it would complete; `url_ttl`, `expired_links`, `words`, `placement` and
 * `result_host` shape the answers that follow.
 */
export function compatVideoPlanOf(directives: Directives, nowMs = Date.now()): CompatVideoPlan {
  const scripted = scriptedErrorOf(directives);
  const pendingPolls = directives.polls ?? 0;
  const plan: CompatVideoPlan = {
    pendingPolls,
    readyAtMs: nowMs + (directives.taskMs ?? 0),
    urlLifetimeSeconds: directives.urlTtlSeconds ?? VIDEO_URL_LIFETIME_SECONDS,
    expiredLinks: directives.expiredLinks ?? 0,
    statusWords: directives.statusWords,
    placement: directives.placement,
    resultHost: directives.resultHost,
  };
  if (scripted && directives.errorAfter !== undefined) {
    plan.failure = {
      code: directives.code ?? FAILURE_CODES[scripted.errorClass],
      message: FAILURE_MESSAGES[scripted.errorClass],
      after: directives.errorAfter,
    };
  } else if (directives.block === 'output') {
    plan.outputBlock = {
      code: directives.code ?? FAILURE_CODES.content_policy,
      message: FAILURE_MESSAGES.content_policy,
    };
  }
  return plan;
}
