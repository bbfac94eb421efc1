// V8's code cache for vm.compileFunction, kept per file name, for Jest's runtime (code-cache.runtime.js).
const vm = require('node:vm');

/**
 * A vm.compileFunction that remembers, per file name, the source it compiled last and the code cache V8
 * produced for it, and gives that cache back to V8 when the same source is compiled again. A changed
 * source is compiled afresh (its cache replaces the old one); V8 itself checks a cache against the
 * source and its own flags, and one it rejects is produced again on the next compile.
 */
function createCachingCompile(compile = vm.compileFunction) {
  /** file name → { source, data }: the source compiled last and V8's cache for it. */
  const cache = new Map();
  return function compileWithCodeCache(code, params, options) {
    const cached = cache.get(options.filename);
    if (cached !== undefined && cached.source === code) {
      const compiled = compile(code, params, { ...options, cachedData: cached.data });
      if (compiled.cachedDataRejected === true) cache.delete(options.filename);
      return compiled;
    }
    const compiled = compile(code, params, { ...options, produceCachedData: true });
    if (compiled.cachedData !== undefined) {
      cache.set(options.filename, { source: code, data: compiled.cachedData });
    }
    return compiled;
  };
}

module.exports = { createCachingCompile };
