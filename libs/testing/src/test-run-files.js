// Files shared by every integration test of one run: the gateway log lines each harness captured and
// the secrets it handed out (channel secrets, plaintext keys), so that the teardown can scan the logs
// of the whole run for any of them.
const { join } = require('node:path');

// GATEWAY_TEST_RUN_DIR lets two Jest runs on one machine keep their files apart.
const runDirectory = process.env.GATEWAY_TEST_RUN_DIR ?? join(__dirname, '..', '..', '..', 'tmp', 'test-run');

module.exports = {
  runDirectory,
  logsDirectory: join(runDirectory, 'logs'),
  secretsDirectory: join(runDirectory, 'secrets'),
};
