import { createModuleCompiler } from './code-cache';

interface ModuleCompiler {
  compile(code: string, params: string[], options: { filename: string }): (...args: unknown[]) => unknown;
  keepCaches(): void;
  counts(): { fromCache: number; compiled: number };
  cachedBytes(): number;
}

/** A module body as Jest compiles one: a function of the module's parameters. */
const moduleBody = (value: number) => `module.exports = { value: ${value}, twice: () => ${value} * 2 };`;

function run(compiled: (...args: unknown[]) => unknown): { value: number; twice(): number } {
  const module = { exports: {} as { value: number; twice(): number } };
  compiled(module);
  return module.exports;
}

describe('the code cache of the test runtime', () => {
  let compiler: ModuleCompiler;

  beforeEach(() => {
    compiler = createModuleCompiler() as ModuleCompiler;
  });

  it('compiles a source once, keeps its cache when asked, then runs the same code from it', () => {
    const first = compiler.compile(moduleBody(21), ['module'], { filename: '/virtual/a.js' });
    expect(run(first).twice()).toBe(42);
    // No cache before the first file's end: the same source is compiled again.
    compiler.compile(moduleBody(21), ['module'], { filename: '/virtual/a.js' });
    expect(compiler.counts()).toEqual({ fromCache: 0, compiled: 2 });

    compiler.keepCaches();
    const again = compiler.compile(moduleBody(21), ['module'], { filename: '/virtual/a.js' });

    expect(compiler.counts()).toEqual({ fromCache: 1, compiled: 2 });
    expect(run(again).value).toBe(21);
    expect(run(again).twice()).toBe(42);
  });

  it('keeps in a cache the functions the module ran, not only its outer body', () => {
    // Large enough inner functions that their bytecode dwarfs V8's cache header.
    const inner = Array.from({ length: 40 }, (_, index) => `n = (n * 31 + ${index}) % 1000003;`).join(' ');
    const body = `module.exports = { value: 1, twice: () => { let n = 1; ${inner} return n; } };`;
    const ranNothing = createModuleCompiler() as ModuleCompiler;
    ranNothing.compile(body, ['module'], { filename: '/virtual/g.js' });
    ranNothing.keepCaches();

    run(compiler.compile(body, ['module'], { filename: '/virtual/g.js' })).twice();
    compiler.keepCaches();

    expect(compiler.cachedBytes()).toBeGreaterThan(ranNothing.cachedBytes() + 200);
  });

  it('never runs a stale cache: a changed source under the same name is compiled afresh', () => {
    compiler.compile(moduleBody(1), ['module'], { filename: '/virtual/b.js' });
    compiler.keepCaches();
    const changed = compiler.compile(moduleBody(2), ['module'], { filename: '/virtual/b.js' });
    compiler.keepCaches();
    const changedAgain = compiler.compile(moduleBody(2), ['module'], { filename: '/virtual/b.js' });

    expect(run(changed).value).toBe(2);
    // The changed source's own cache replaced the old one.
    expect(compiler.counts()).toEqual({ fromCache: 1, compiled: 2 });
    expect(run(changedAgain).twice()).toBe(4);
  });

  it('keeps the caches of files apart', () => {
    compiler.compile(moduleBody(3), ['module'], { filename: '/virtual/c.js' });
    compiler.keepCaches();
    const other = compiler.compile(moduleBody(3), ['module'], { filename: '/virtual/d.js' });

    expect(compiler.counts()).toEqual({ fromCache: 0, compiled: 2 });
    expect(run(other).value).toBe(3);
  });

  it('reports the lines and columns of the module source, not of its wrapper', () => {
    const body = ['const a = 1;', '', '  module.exports = () => { throw new Error("here"); };'].join('\n');
    const thrower = run(compiler.compile(body, ['module'], { filename: '/virtual/h.js' })) as unknown;

    let stack = '';
    try {
      (thrower as () => void)();
    } catch (error) {
      stack = (error as Error).stack ?? '';
    }
    // Line 3, the column of `new Error` (1-based), as in the source.
    expect(stack).toContain(`/virtual/h.js:3:${body.split('\n')[2].indexOf('new Error') + 1}`);
  });

  it('passes a syntax error through, and caches nothing for it', () => {
    // A SyntaxError of Node's realm, not the test's: matched by its message.
    expect(() => compiler.compile('module.exports = ;', ['module'], { filename: '/virtual/e.js' })).toThrow(
      /Unexpected token/,
    );
    compiler.keepCaches();
    const fixed = compiler.compile(moduleBody(5), ['module'], { filename: '/virtual/e.js' });

    expect(compiler.counts()).toEqual({ fromCache: 0, compiled: 1 });
    expect(run(fixed).value).toBe(5);
  });
});
