import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { declareRouteRoot, type RouteFamily } from '../errors/route-family';
import { mergeRouteConfig } from './route-config.decorator';

/** Nest's method decorators (Get, Post …) record the route's path under this key. */
const PATH_METADATA = 'path';

export interface InferenceRoutesOptions {
  /** The controller's path, as `@Controller` takes it. */
  path: string;
  /** The error dialect of every route here, and the credential forms its key may come in. */
  dialect: Exclude<RouteFamily, 'admin' | 'system'>;
  /** The OpenAPI tag. */
  tag: string;
}

/**
 * Declares a controller of routes an API key calls, once: its path, its dialect and its docs. Every
 * route of the class carries the dialect in its Fastify config (errors are answered in it, and the
 * key is checked before the body is read), and the path's root is declared with it, so that paths no
 * route matches under it answer alike. Method decorators give each route's method, path, body and docs.
 */
export function InferenceRoutes(options: InferenceRoutesOptions): ClassDecorator {
  declareRouteRoot(options.path.startsWith('/') ? options.path : `/${options.path}`, options.dialect);
  const nativeKeyForms = options.dialect === 'native' ? [ApiSecurity('vendor-key')] : [];
  const decorators = applyDecorators(
    ApiTags(options.tag),
    ApiBearerAuth(),
    ...nativeKeyForms,
    Controller(options.path),
    UseGuards(ApiKeyGuard),
  );
  return (target) => {
    const prototype = (target as unknown as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (typeof handler === 'function' && Reflect.hasMetadata(PATH_METADATA, handler)) {
        mergeRouteConfig(handler, { dialect: options.dialect, apiKey: true });
      }
    }
    decorators(target);
  };
}
