// Jest's module runtime, with V8's code cache kept between the test files of one worker.
//
// Jest gives every test file a fresh module registry, so every file that starts a gateway compiles its
// whole module graph again (about 3,100 modules: Nest, Fastify, Prisma, class-validator and the
// gateway's own), and vm.compileFunction, which Jest compiles with, has no cache of its own: about
// 0.85 s of CPU per integration file. With the code cache a worker compiles each module once, then
// reads V8's cache back for the identical source only (code-cache.js): about 0.35 s of CPU less per
// file that starts a gateway.
// perf-machinery: jest-code-cache (docs/performance-machinery.md)
const vm = require('node:vm');
const JestRuntime = require('jest-runtime').default;
const { createCachingCompile } = require('./code-cache');

const compileWithCodeCache = createCachingCompile(vm.compileFunction);

class CodeCachingRuntime extends JestRuntime {
  createScriptFromCode(scriptSource, filename) {
    // Jest's own method compiles through vm.compileFunction with its options (the test file's context,
    // its dynamic import hook): that one synchronous call goes through the cache, every option kept.
    const compile = vm.compileFunction;
    vm.compileFunction = compileWithCodeCache;
    try {
      return super.createScriptFromCode(scriptSource, filename);
    } finally {
      vm.compileFunction = compile;
    }
  }
}

module.exports = CodeCachingRuntime;
