import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { GENERATION_REQUEST_MODELS, GENERATION_ROUTES } from '../text/generation-route.table';

/** The OpenAPI document is generated from the DTO decorators; Swagger UI at /docs, JSON at /docs/openapi.json. */
export function setupApiDocs(app: NestFastifyApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Generation gateway')
      .setDescription(
        'One base URL, one key and one billing system in front of many generation upstreams. ' +
          'Native-format routes under /v1beta, OpenAI-style routes under /v1, the operator API under /admin.',
      )
      .setVersion('0.1.0')
      .addBearerAuth()
      .addApiKey({ type: 'apiKey', in: 'header', name: 'x-vendor-api-key' }, 'vendor-key')
      .build(),
    { extraModels: GENERATION_REQUEST_MODELS },
  );
  // The generation routes have no controller whose decorators the document could read (see GenerationRoutes).
  for (const route of GENERATION_ROUTES) document.paths[route.docsPath] = { post: route.docs };
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
}
