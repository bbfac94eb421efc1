// Jest's module runtime, with what one worker keeps between its test files: V8's code cache of each
// module (below), each module's source (worker-sources.js) and, for the files that share the worker's
// vm context, the modules themselves (worker-modules.js).
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
const { sharedRegistry, sharesModules, forgetTestFiles } = require('./worker-modules');

/** One per worker process: Jest builds a runtime per test file. */
const compiler = createModuleCompiler();

class CodeCachingRuntime extends JestRuntime {
  /** Jest's arguments: (config, environment, resolver, transformer, cacheFS, options, testPath, …). */
  constructor(config, environment, resolver, transformer, cacheFS, options, testPath, ...rest) {
    // Read before Jest's constructor, which empties cacheFS (the test file's source, put there by Jest).
    const testSource = cacheFS.get(testPath) ?? readSource(testPath);
    const shares = environment.constructor.sharesWorkerContext === true && sharesModules(testSource);
    super(config, environment, resolver, transformer, cacheFS, options, testPath, ...rest);
    this.sharesModules = shares;
    if (shares) this._moduleRegistry = sharedRegistry;
  }

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
    if (!this.sharesModules) return super.teardown();
    forgetTestFiles();
    // Jest's teardown empties the registry it finds: the shared one is kept for the next file.
    this._moduleRegistry = new Map();
    super.teardown();
    // The modules kept call this runtime's require() for what they load late, into the shared
    // registry, in the shared context: it goes on serving them. (So Jest's warning about a module
    // loaded after its file ended no longer fires for these files.)
    this._moduleRegistry = sharedRegistry;
    this.isTornDown = false;
  }
}

module.exports = CodeCachingRuntime;
