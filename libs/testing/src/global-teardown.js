// Jest global teardown of the integration project: no channel secret and no plaintext inference key
// may appear in the gateway logs of the whole run.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { logsDirectory, secretsDirectory } = require('./test-run-files');

function readAll(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory).map((name) => readFileSync(join(directory, name), 'utf8'));
}

module.exports = async function scanLogsForSecrets() {
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
