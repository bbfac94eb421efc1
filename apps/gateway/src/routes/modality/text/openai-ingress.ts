import {
  ChatCompletionRequestDto,
  checkBody,
  describeProblems,
  STRICT_BODY_CHECKS,
  type BodyCheckContext,
} from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { TextIngress } from './text-ingress';

interface ChatRequestShape {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  n?: number;
}

/**
 * Validates an OpenAI-style chat completion request and describes it for the generation pipeline. An image
 * part's URL is judged by the forwarded-URL policy with `checks` (the operator's SSRF_ALLOW_HOSTS)
 * during the same walk.
 */
export function toOpenAiIngress(
  body: unknown,
  rawBody: Buffer | undefined,
  checks: BodyCheckContext = STRICT_BODY_CHECKS,
): TextIngress {
  const validation = checkBody(ChatCompletionRequestDto, body, checks);
  if (!validation.ok) {
    throw GatewayError.invalidRequest(describeProblems(validation.problems), validation.problems[0]?.field);
  }
  const request = body as ChatRequestShape & Record<string, unknown>;
  return {
    dialect: 'openai',
    route: '/v1/chat/completions',
    model: request.model,
    request,
    rawBody,
    framing: request.stream === true ? 'openai-sse' : undefined,
    includeUsage: request.stream_options?.include_usage === true,
    maxOutputTokens: request.max_completion_tokens ?? request.max_tokens,
    candidateCount: request.n ?? 1,
    promptBytes: rawBody?.length ?? 0,
  };
}
