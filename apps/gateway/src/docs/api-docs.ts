import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document is generated from the DTO decorators; Swagger UI at /docs, JSON at /docs/openapi.json. */
export function setupApiDocs(app: NestFastifyApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Generation gateway')
      .setDescription(
        'One base URL, one key and one billing system in front of many generation upstreams. ' +
          'The native routes (/v1beta) follow the native wire and are described in docs/api.md.',
      )
      .setVersion('0.1.0')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
}
