// One Jest run for the whole workspace: unit specs live beside the code (*.spec.ts), integration
// specs (*.int-spec.ts) talk to real Postgres, Redis and the simulators over HTTP.
const { join } = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const swcTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

/** The console's components (.tsx), for the specs that render them to markup. */
const tsxTransform = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, join('<rootDir>', target)]),
);

/** content-disposition; file-type (the video clip check) and the packages its core imports. */
const ESM_ONLY_PACKAGES =
  '(content-disposition|file-type|strtok3|token-types|uint8array-extras|@tokenizer/inflate|@borewit/text-codec)';

const shared = {
  testEnvironment: 'node',
  // Jest's runtime with V8's code cache kept between the files of a worker (see the file).
  runtime: '<rootDir>/tools/jest/code-cache.runtime.js',
  // Node 20.19+ can require() ES modules; Jest cannot, so the few ESM-only packages are compiled.
  transform: {
    '^.+\\.ts$': swcTransform,
    '^.+\\.tsx$': tsxTransform,
    [`^.+/node_modules/${ESM_ONLY_PACKAGES}/.+\\.js$`]: swcTransform,
  },
  transformIgnorePatterns: [`/node_modules/(?!${ESM_ONLY_PACKAGES}/)`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  moduleNameMapper,
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
};

module.exports = {
  testTimeout: 60000,
  // An integration worker keeps every module its files loaded (tools/jest/worker-modules.js) and what
  // they leave reachable from them: its memory grew to about 1.9 GB by the end of a run. A worker past
  // this after a file is replaced, and its successor loads the modules once again.
  // The "A worker process has failed to exit gracefully" that ends a run is this memory too, not a
  // leak: in two runs measured, each worker emitted 'exit' 1–250 ms after being told to end, with
  // nothing left open, and was still there 500 ms after, when jest-worker kills it (about 1 GB each
  // for the system to take back).
  workerIdleMemoryLimit: '1536MB',
  // Longest files first, from recorded durations when Jest's cache has none (a fresh clone).
  testSequencer: '<rootDir>/tools/jest/slow-first.sequencer.js',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['**/*.int-spec.ts'],
      // One vm context per worker, whose files share their modules (tools/jest/worker-modules.js): an
      // integration file loads a gateway's whole graph. A unit file loads little, and gained nothing.
      testEnvironment: '<rootDir>/tools/jest/worker-context.environment.js',
      testTimeout: 60000,
      globalSetup: '<rootDir>/libs/testing/src/global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.js',
    },
  ],
};
