import type { FastifyContextConfig } from 'fastify';

/** Nest's Fastify adapter reads a handler's route config under this key (RouteConfig's own). */
const ROUTE_CONFIG_METADATA = '__fastify_route_config__';

/**
 * Adds fields to a handler's Fastify route config, keeping those other decorators set: Nest's own
 * RouteConfig replaces the whole object, so two of them on one route would not compose.
 */
export function mergeRouteConfig(handler: object, fields: Partial<FastifyContextConfig>): void {
  const existing = (Reflect.getMetadata(ROUTE_CONFIG_METADATA, handler) ?? {}) as object;
  Reflect.defineMetadata(ROUTE_CONFIG_METADATA, { ...existing, ...fields }, handler);
}

/** A method decorator merging `fields` into the route's config (see mergeRouteConfig). */
export function MergeRouteConfig(fields: Partial<FastifyContextConfig>): MethodDecorator {
  return (_target, _key, descriptor) => {
    mergeRouteConfig(descriptor.value as object, fields);
    return descriptor;
  };
}
