// Files shared by every integration test of one run: the gateway log lines each harness captured and
// the secrets it handed out (channel secrets, plaintext keys), so that the teardown can scan the logs
// of the whole run for any of them.
const { join } = require('node:path');

// GATEWAY_TEST_RUN_DIR lets two Jest runs on one machine keep their files apart.
const runDirectory = process.env.GATEWAY_TEST_RUN_DIR ?? join(__dirname, '..', '..', '..', 'tmp', 'test-run');

/**
 * The production build the run's test files share (BuiltApps): the global setup names a folder of this
 * run's own inside the repository (so node_modules resolves) and passes it to Jest's workers in this
 * variable; the teardown removes it.
 */
const SHARED_BUILD_VARIABLE = 'GATEWAY_TEST_SHARED_BUILD';

module.exports = {
  runDirectory,
  logsDirectory: join(runDirectory, 'logs'),
  secretsDirectory: join(runDirectory, 'secrets'),
  SHARED_BUILD_VARIABLE,
  sharedBuildDirectory: () => process.env[SHARED_BUILD_VARIABLE],
};
