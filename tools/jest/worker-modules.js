// The module registry the test files of one Jest worker share, in the vm context they share
// (worker-context.environment.js).
//
// Jest gives every test file a fresh module registry, so every integration file loaded its whole graph
// again (a gateway is about 2,150 modules: Nest, Fastify, Prisma, class-validator and the gateway's own)
// and ran it cold: about 0.85 s of CPU per gateway file went to loading and warming the same code.
// Here a worker loads each module once, and the files after the first find it loaded and warm.
//
// What a file still gets afresh: its own test file, its globals (Jest's `describe`, `expect`, console),
// its mocks and spies (restored when it ends), and a `process.env` set back to the worker's. Every test
// file makes its own gateway, databases and Redis prefix, so no test shares an instance with another;
// what modules keep between files is what a long-lived process keeps (code-derived caches).
// A file that rewires modules (`jest.mock`, `jest.isolateModules`, …) must see them load under its
// mocks: it gets a registry of its own, as Jest gives every file.
// Written here because Jest has no such option (Vitest's `isolate: false` is one); it leans on two
// members of Jest's runtime, `_moduleRegistry` and `isTornDown` (code-cache.runtime.js).
// perf-machinery: jest-worker-modules (docs/performance-machinery.md)

/** path → module: everything the sharing files of this worker loaded, but the test files themselves. */
const sharedRegistry = new Map();

const TEST_FILE = /\.(int-)?spec\.tsx?$/;
const REWIRES_MODULES =
  /\bjest\.(mock|doMock|unstable_mockModule|setMock|isolateModules|isolateModulesAsync|resetModules|enableAutomock)\(/;

/** Whether a test file (its source) may run in the worker's shared registry. */
function sharesModules(testSource) {
  return !REWIRES_MODULES.test(testSource);
}

/** Drops the test files from the shared registry when one ends: each file runs its own afresh. */
function forgetTestFiles() {
  for (const path of sharedRegistry.keys()) if (TEST_FILE.test(path)) sharedRegistry.delete(path);
}

module.exports = { sharedRegistry, sharesModules, forgetTestFiles };
