import type { OpenAPIObject } from '@nestjs/swagger';
import { getSchemaPath } from '@nestjs/swagger';
import { ChatCompletionRequestDto, NativeGenerateRequestDto } from '@gateway/contracts';

/** The request bodies of the generation routes, whose schemas the document must carry. */
export const GENERATION_REQUEST_MODELS = [ChatCompletionRequestDto, NativeGenerateRequestDto];

const jsonBody = (model: (typeof GENERATION_REQUEST_MODELS)[number]) => ({
  required: true,
  content: { 'application/json': { schema: { $ref: getSchemaPath(model) } } },
});

/**
 * The generation routes are served by Fastify directly (text/generation-routes.ts), so no controller
 * decorators describe them; their operations are written here, in the shape the decorators produced.
 */
export function addGenerationRouteDocs(document: OpenAPIObject): void {
  document.paths['/v1/chat/completions'] = {
    post: {
      tags: ['OpenAI-style'],
      summary: 'Chat completion, whole or streamed (SSE with [DONE])',
      security: [{ bearer: [] }],
      requestBody: jsonBody(ChatCompletionRequestDto),
      responses: { 200: { description: 'The completion, or its chunks as Server-Sent Events' } },
    },
  };
  document.paths['/v1beta/models/{modelAction}'] = {
    post: {
      tags: ['Native format'],
      summary: '{model}:generateContent or {model}:streamGenerateContent',
      description:
        'The path parameter is `{model}:generateContent` (one JSON answer) or `{model}:streamGenerateContent` ' +
        '(with alt=sse: Server-Sent Events, `data: <chunk>` + CRLF CRLF, no done sentinel; without alt: one JSON ' +
        'array written incrementally). Chunks carry cumulative usageMetadata.',
      security: [{ bearer: [] }, { 'vendor-key': [] }],
      parameters: [
        {
          name: 'modelAction',
          in: 'path',
          required: true,
          schema: { type: 'string' },
          example: 'kappa-2.0-flash:streamGenerateContent',
        },
        { name: 'alt', in: 'query', required: false, schema: { type: 'string', enum: ['sse'] } },
      ],
      requestBody: jsonBody(NativeGenerateRequestDto),
      responses: { 200: { description: 'The answer, its chunks as Server-Sent Events, or a JSON array' } },
    },
  };
}
