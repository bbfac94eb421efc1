import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { addGenerationRouteDocs, GENERATION_REQUEST_MODELS } from './generation-route.docs';

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
  addGenerationRouteDocs(document);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
}
