// V8's code cache for the modules Jest compiles, kept per file name, for Jest's runtime
// (code-cache.runtime.js).
const vm = require('node:vm');

/**
 * A module compiler with the signature of vm.compileFunction (the one Jest's runtime calls), which
 * remembers, per file name, the source it compiled and V8's code cache for it, and gives that cache
 * back to V8 when the same source is compiled again.
 *
 * It compiles a vm.Script that evaluates to the module's function, not vm.compileFunction: a function's
 * cache can only be made right after its compile, when V8 has compiled its outer body alone, so every
 * inner function was compiled again by each test file that ran it. A Script's cache is made later
 * (`keepCaches`, once the module has run), and then holds the functions the run compiled too.
 *
 * A changed source is compiled afresh (its cache replaces the old one); V8 itself checks a cache
 * against the source and its own flags, and one it rejects is made again at the next `keepCaches`.
 */
function createModuleCompiler() {
  /** file name → { source, data }: the source compiled last and V8's cache for it. */
  const cache = new Map();
  /** Scripts compiled without a usable cache since the last keepCaches. */
  let uncached = [];
  const counts = { fromCache: 0, compiled: 0 };

  /** vm.compileFunction(code, params, { filename, parsingContext, importModuleDynamically }). */
  function compile(code, params, options) {
    const cached = cache.get(options.filename);
    const usable = cached !== undefined && cached.source === code;
    // The wrapper takes a line of its own, which lineOffset takes back: the module's lines and columns
    // are where its source (and its source map) says.
    const script = new vm.Script(`(function (${params.join(', ')}) {\n${code}\n})`, {
      filename: options.filename,
      lineOffset: -1,
      importModuleDynamically: options.importModuleDynamically,
      cachedData: usable ? cached.data : undefined,
    });
    if (usable && script.cachedDataRejected === false) counts.fromCache += 1;
    else {
      counts.compiled += 1;
      uncached.push({ script, filename: options.filename, source: code });
    }
    return options.parsingContext === undefined
      ? script.runInThisContext()
      : script.runInContext(options.parsingContext);
  }

  /** Makes the caches of the scripts compiled since the last call, with what they compiled since. */
  function keepCaches() {
    for (const { script, filename, source } of uncached) {
      cache.set(filename, { source, data: script.createCachedData() });
    }
    uncached = [];
  }

  return {
    compile,
    keepCaches,
    /** How many compiles V8 took from a cache, and how many it compiled. */
    counts: () => ({ ...counts }),
    /** The size of the caches kept, in bytes. */
    cachedBytes: () => [...cache.values()].reduce((sum, { data }) => sum + data.length, 0),
  };
}

module.exports = { createModuleCompiler };
