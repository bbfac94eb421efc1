import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import {
  GENERATION_ROUTES,
  GENERATION_SCHEMA_MODELS,
} from '../../routes/modality/text/generation-route.table';
import { documentErrorResponses, ERROR_BODY_MODELS } from './error-responses';

// perf-machinery: lazy-api-docs (docs/performance-machinery.md)
/**
 * The OpenAPI document is generated from the DTO decorators; Swagger UI at /docs, JSON at
 * /docs/openapi.json. It is built on the first request for it, not at boot: building it walks every
 * route and DTO (about 0.2 s of CPU), which every gateway start, and every integration test file that
 * starts one, would pay for a page few of them open.
 */
export function setupApiDocs(app: NestFastifyApplication): void {
  SwaggerModule.setup('docs', app, () => createApiDocument(app), { jsonDocumentUrl: 'docs/openapi.json' });
}

function createApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Generation gateway')
      .setDescription(
        'One base URL, one key and one billing system in front of many generation upstreams. ' +
          'Native-format routes under /v1beta, OpenAI-style routes under /v1, the operator API under /admin.',
      )
      .setVersion('0.1.0')
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      // Relative: the gateway's own origin, wherever it is deployed.
      .addServer('/', 'This gateway')
      .addBearerAuth()
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-vendor-api-key' }, 'vendor-key')
      // The console's session (POST /admin/session), accepted wherever the admin token is.
      .addCookieAuth('gw_console', { type: 'apiKey', in: 'cookie', name: 'gw_console' }, 'console-session')
      .build(),
    { extraModels: [...GENERATION_SCHEMA_MODELS, ...ERROR_BODY_MODELS] },
  );
  // The generation routes have no controller whose decorators the document could read (see GenerationRoutes).
  for (const route of GENERATION_ROUTES) {
    for (const [path, post] of Object.entries(route.docs))
      document.paths[path] = { ...document.paths[path], post };
  }
  documentErrorResponses(document);
  return document;
}
