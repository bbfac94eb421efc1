import type { SchemaObject } from '@nestjs/swagger';

/** A file's bytes as an answer's body, under each content type the route's `@ApiProduces` names. */
export const BINARY_BODY: SchemaObject = { type: 'string', format: 'binary' };
