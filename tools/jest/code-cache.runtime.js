// Jest's module runtime, with V8's code cache kept between the test files of one worker.
//
// Jest gives every test file a fresh module registry, so every file that starts a gateway compiles its
// whole module graph again (about 3,100 modules: Nest, Fastify, Prisma, class-validator and the
// gateway's own), and vm.compileFunction, which Jest compiles with, has no cache of its own. With the
// code cache a worker compiles each module once, then reads V8's cache back for the identical source
// only (code-cache.js). The caches are made when a test file ends, so that they hold the functions
// its run compiled, not only the modules' outer bodies: twenty gateway files in one worker took 19 %
// less CPU than with caches made at compile time (141 → 114 s), and those made at compile time saved
// about 0.35 s of CPU per file against none.
// perf-machinery: jest-code-cache (docs/performance-machinery.md)
const vm = require('node:vm');
const JestRuntime = require('jest-runtime').default;
const { createModuleCompiler } = require('./code-cache');
const { disableFileStorages } = require('./file-async-storages');
const { readSource } = require('./worker-sources');

/** One per worker process: Jest builds a runtime per test file. */
const compiler = createModuleCompiler();

class CodeCachingRuntime extends JestRuntime {
  createScriptFromCode(scriptSource, filename) {
    // Jest's own method compiles through vm.compileFunction with its options (the test file's context,
    // its dynamic import hook): that one synchronous call goes through the cache, every option kept.
    const compile = vm.compileFunction;
    vm.compileFunction = compiler.compile;
    try {
      return super.createScriptFromCode(scriptSource, filename);
    } finally {
      vm.compileFunction = compile;
    }
  }

  /** Jest's own reads the file for each test file; this one reads it once per worker (see the file). */
  readFile(filename) {
    let source = this._cacheFS.get(filename);
    if (source === undefined) {
      source = readSource(filename);
      this._cacheFS.set(filename, source);
    }
    return source;
  }

  teardown() {
    compiler.keepCaches();
    disableFileStorages();
    return super.teardown();
  }
}

module.exports = CodeCachingRuntime;
