import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type Factory = (...args: unknown[]) => unknown;

// perf-machinery: lazy-schema-compilers (docs/performance-machinery.md)
/**
 * Fastify loads its schema compilers (ajv and fast-json-stringify: 247 modules, about 2.3 MiB of heap
 * and 0.13 s of CPU) when a server is created. No gateway route declares a Fastify schema (request
 * bodies are checked by the DTOs' own rules), nor does any simulator route (each wire parses its own
 * bodies), and every integration test file starts a simulator; so these factories load Fastify's
 * default compilers only when a route with a schema is compiled. They are resolved from Fastify's own
 * dependencies.
 */
export function lazySchemaCompilers(): CompilersFactory {
  const requireFromFastify = createRequire(require.resolve('fastify'));
  const lazily = (packageName: string): Factory => {
    let factory: Factory | undefined;
    return (...args) => {
      factory ??= (requireFromFastify(packageName) as () => Factory)();
      return factory(...args);
    };
  };
  return {
    buildValidator: lazily('@fastify/ajv-compiler'),
    buildSerializer: lazily('@fastify/fast-json-stringify-compiler'),
  } as CompilersFactory;
}
