import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { useLeanAsyncResourceBind } from './async-resource-bind';

describe('useLeanAsyncResourceBind', () => {
  beforeAll(() => useLeanAsyncResourceBind());

  it('runs the bound function in the async scope of the resource, not of the caller', () => {
    const storage = new AsyncLocalStorage<string>();
    const bound = storage.run('at bind time', () => new AsyncResource('test').bind(() => storage.getStore()));

    expect(storage.run('at call time', () => bound())).toBe('at bind time');
  });

  it('passes arguments and returns the result', () => {
    const bound = new AsyncResource('test').bind((a: unknown, b: unknown) => `${String(a)}+${String(b)}`);
    expect(bound(1, 2)).toBe('1+2');
  });

  it('keeps the caller this unless one was given', () => {
    const resource = new AsyncResource('test');
    const free = resource.bind(function (this: unknown) {
      return this;
    });
    // Node's bind takes a this argument that @types/node does not declare.
    const bindWithThis = resource.bind.bind(resource) as (
      fn: () => unknown,
      thisArg: unknown,
    ) => () => unknown;
    const fixed = bindWithThis(function (this: unknown) {
      return this;
    }, 'given');
    const holder = { free, fixed };

    expect(holder.free()).toBe(holder);
    expect(holder.fixed()).toBe('given');
  });

  it('refuses a non-function like Node does', () => {
    // By message: the patch may come from another test file's realm, with its own TypeError.
    expect(() => new AsyncResource('test').bind('nope' as never)).toThrow(
      /"fn" argument must be of type function/,
    );
  });

  it('no longer defines the deprecated asyncResource property', () => {
    const bound = new AsyncResource('test').bind(() => undefined);
    expect(Object.prototype.hasOwnProperty.call(bound, 'asyncResource')).toBe(false);
  });
});
