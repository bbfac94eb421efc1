import {
  NativeGenerateRequestDto,
  checkBody,
  describeProblems,
  findShapeProblem,
  STRICT_BODY_CHECKS,
  type BodyCheckContext,
} from '@gateway/contracts';
import { normaliseNativeRequest, requestUsesSnakeCase } from '@gateway/dialects';
import { applyKappaImageSizeRule } from '@gateway/providers';
import { GatewayError } from '@gateway/errors';
import type { TextIngress } from './text-ingress';

const ACTIONS = ['generateContent', 'streamGenerateContent'] as const;
type NativeAction = (typeof ACTIONS)[number];

/** `{model}:{action}` of the native path; the model id may itself contain colons, the action may not. */
export function parseModelAction(modelAction: string): { model: string; action: NativeAction } {
  const separator = modelAction.lastIndexOf(':');
  const action = modelAction.slice(separator + 1);
  const model = modelAction.slice(0, separator).replace(/^models\//, '');
  if (separator <= 0 || !(ACTIONS as readonly string[]).includes(action)) {
    throw new GatewayError(
      'not_found',
      `Unknown method '${action}'. Use {model}:generateContent or {model}:streamGenerateContent.`,
    );
  }
  return { model, action: action as NativeAction };
}

/**
 * Validates a native generation request and describes it for the generation pipeline. A part's
 * `fileData.fileUri` is judged by the forwarded-URL policy with `checks` (the operator's
 * SSRF_ALLOW_HOSTS) during the same walk.
 */
export function toNativeIngress(
  modelAction: string,
  alt: string | undefined,
  body: unknown,
  rawBody: Buffer | undefined,
  checks: BodyCheckContext = STRICT_BODY_CHECKS,
): TextIngress {
  const { model, action } = parseModelAction(modelAction);
  // The snake_case normaliser recurses into the body: its shape (depth, sizes, reserved keys) first.
  const shapeProblem = findShapeProblem(body);
  if (shapeProblem) throw GatewayError.invalidRequest(describeProblems([shapeProblem]), shapeProblem.field);
  const camelCase = requestUsesSnakeCase(body) ? normaliseNativeRequest(body) : body;
  const validation = checkBody(NativeGenerateRequestDto, camelCase, checks);
  if (!validation.ok) {
    throw GatewayError.invalidRequest(describeProblems(validation.problems), validation.problems[0]?.field);
  }
  const sized = applyKappaImageSizeRule(model, camelCase as Record<string, unknown>);
  if (!sized.ok) throw GatewayError.invalidRequest(sized.message, sized.param);
  const generationConfig = (sized.request['generationConfig'] ?? {}) as {
    maxOutputTokens?: number;
    candidateCount?: number;
  };
  return {
    dialect: 'native',
    route: `/v1beta/models/{model}:${action}`,
    model,
    request: sized.request,
    rawBody: sized.changed ? undefined : rawBody,
    framing: action === 'generateContent' ? undefined : alt === 'sse' ? 'native-sse' : 'native-json-array',
    includeUsage: true,
    maxOutputTokens: generationConfig.maxOutputTokens,
    candidateCount: generationConfig.candidateCount ?? 1,
    promptBytes: rawBody?.length ?? 0,
  };
}
