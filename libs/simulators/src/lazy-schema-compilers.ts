import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
type Factory = (...args: unknown[]) => unknown;

// perf-machinery: lazy-schema-compilers (docs/performance-machinery.md)
/**
 * Fastify loads its schema compilers (ajv and fast-json-stringify: 247 modules, about 0.13 s of CPU)
 * when a server is created, and every integration test file creates a simulator. No simulator route
 * declares a Fastify schema (each wire parses its own bodies), so these load Fastify's own compilers
 * only when a route with a schema is compiled. The gateway does the same (lazy-schema-compilers.ts
 * there); the simulators depend on no library, so they keep their own.
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
