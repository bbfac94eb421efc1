// Jest global teardown of the integration project: removes the run's shared build, then checks that no
// channel secret and no plaintext inference key appears in the gateway logs of the whole run.
const { existsSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { logsDirectory, secretsDirectory, sharedBuildDirectory } = require('./test-run-files');

function readAll(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory).map((name) => readFileSync(join(directory, name), 'utf8'));
}

module.exports = async function scanLogsForSecrets() {
  // The run's shared build (global-setup.js): every process started from it has ended with its test.
  const build = sharedBuildDirectory();
  if (build !== undefined) rmSync(build, { recursive: true, force: true });
  const secrets = new Set(
    readAll(secretsDirectory)
      .flatMap((text) => text.split('\n'))
      .filter((line) => line.length >= 8),
  );
  const logs = readAll(logsDirectory).join('\n');
  const leaked = [...secrets].filter((secret) => logs.includes(secret));
  if (leaked.length > 0) {
    throw new Error(`${leaked.length} secret(s) or key(s) appear in the gateway logs of this test run`);
  }
  if (secrets.size > 0) {
    process.stdout.write(
      `\nlog scan: ${secrets.size} secrets and keys, none in ${logs.length} bytes of gateway logs\n`,
    );
  }
};
