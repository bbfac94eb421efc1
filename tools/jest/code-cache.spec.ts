import { compileFunction } from 'node:vm';
import { createCachingCompile } from './code-cache';

type Compiled = ((...args: unknown[]) => unknown) & {
  cachedData?: Buffer;
  cachedDataRejected?: boolean;
};
type CachingCompile = (code: string, params: string[], options: { filename: string }) => Compiled;

/** A module body as Jest compiles one: a function of the module's parameters. */
const moduleBody = (value: number) => `module.exports = { value: ${value}, twice: () => ${value} * 2 };`;

function run(compiled: Compiled): { value: number; twice(): number } {
  const module = { exports: {} as { value: number; twice(): number } };
  compiled(module);
  return module.exports;
}

describe('the code cache of the test runtime', () => {
  let compile: CachingCompile;

  beforeEach(() => {
    compile = createCachingCompile(compileFunction) as CachingCompile;
  });

  it('compiles a source once, then hands V8 its cache, which V8 accepts, and runs the same code', () => {
    const first = compile(moduleBody(21), ['module'], { filename: '/virtual/a.js' });
    const again = compile(moduleBody(21), ['module'], { filename: '/virtual/a.js' });

    // Node sets cachedDataRejected only on a compile that was given a cache.
    expect(first.cachedDataRejected).toBeUndefined();
    expect(again.cachedDataRejected).toBe(false);
    expect(run(again).value).toBe(21);
    expect(run(again).twice()).toBe(42);
  });

  it('never runs a stale cache: a changed source under the same name is compiled afresh', () => {
    compile(moduleBody(1), ['module'], { filename: '/virtual/b.js' });
    const changed = compile(moduleBody(2), ['module'], { filename: '/virtual/b.js' });
    const changedAgain = compile(moduleBody(2), ['module'], { filename: '/virtual/b.js' });

    expect(changed.cachedDataRejected).toBeUndefined();
    expect(run(changed).value).toBe(2);
    // The changed source's own cache replaced the old one.
    expect(changedAgain.cachedDataRejected).toBe(false);
    expect(run(changedAgain).twice()).toBe(4);
  });

  it('keeps the caches of files apart', () => {
    compile(moduleBody(3), ['module'], { filename: '/virtual/c.js' });
    const other = compile(moduleBody(3), ['module'], { filename: '/virtual/d.js' });

    expect(other.cachedDataRejected).toBeUndefined();
    expect(run(other).value).toBe(3);
  });

  it('drops a cache V8 rejects, still runs the code, and produces a good cache on the next compile', () => {
    let corruptions = 1;
    // V8 rejects a cache whose bytes are not its own: the first cache handed back is damaged.
    const damaging = createCachingCompile(
      (code: string, params: string[], options: { cachedData?: Buffer }) =>
        compileFunction(
          code,
          params,
          options.cachedData !== undefined && corruptions-- > 0
            ? { ...options, cachedData: Buffer.from('not a code cache') }
            : options,
        ),
    ) as CachingCompile;
    damaging(moduleBody(7), ['module'], { filename: '/virtual/f.js' });

    const rejected = damaging(moduleBody(7), ['module'], { filename: '/virtual/f.js' });
    const produced = damaging(moduleBody(7), ['module'], { filename: '/virtual/f.js' });
    const accepted = damaging(moduleBody(7), ['module'], { filename: '/virtual/f.js' });

    expect(rejected.cachedDataRejected).toBe(true);
    expect(run(rejected).value).toBe(7);
    expect(produced.cachedDataRejected).toBeUndefined();
    expect(accepted.cachedDataRejected).toBe(false);
  });

  it('passes a syntax error through, and caches nothing for it', () => {
    // A SyntaxError of Node's realm, not the test's: matched by its message.
    expect(() => compile('module.exports = ;', ['module'], { filename: '/virtual/e.js' })).toThrow(
      /Unexpected token/,
    );
    const fixed = compile(moduleBody(5), ['module'], { filename: '/virtual/e.js' });

    expect(fixed.cachedDataRejected).toBeUndefined();
    expect(run(fixed).value).toBe(5);
  });
});
