import { AsyncResource } from 'node:async_hooks';

type AnyFunction = (...args: unknown[]) => unknown;

// perf-machinery: async-resource-bind (docs/performance-machinery.md)
/**
 * Node 20's `AsyncResource#bind` defines a deprecated `asyncResource` accessor pair on every bound
 * function, building two `util.deprecate` wrappers per call. Fastify binds one callback per request
 * body, and the profile showed those wrappers as about 4 % of the gateway's CPU. This binds the same
 * way (the function runs in the resource's async scope, `this` as Node passes it) without the
 * deprecated property (DEP0172), which nothing in the gateway reads. Applied once per process, only
 * where the deprecated property is still there.
 */
export function useLeanAsyncResourceBind(): void {
  const probe = new AsyncResource('gateway-probe').bind(() => undefined);
  if (!Object.prototype.hasOwnProperty.call(probe, 'asyncResource')) return;
  AsyncResource.prototype.bind = function bind<F extends AnyFunction>(
    this: AsyncResource,
    fn: F,
    thisArg?: unknown,
  ): F {
    if (typeof fn !== 'function') {
      throw new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`);
    }
    return bindToResource(this, fn, thisArg);
  } as typeof AsyncResource.prototype.bind;
}

function bindToResource<F extends AnyFunction>(resource: AsyncResource, fn: F, thisArg: unknown): F {
  const bound =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : (...args: unknown[]) => resource.runInAsyncScope(fn, thisArg, ...args);
  return bound as F;
}
