// Typed access to the run's shared folders (test-run-files.js, which Jest's global setup and teardown
// load without a transform).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runFiles = require('./test-run-files.js') as {
  logsDirectory: string;
  secretsDirectory: string;
  sharedBuildDirectory: () => string | undefined;
};

/** Where each harness writes the gateway log lines it captured; the teardown scans them for secrets. */
export const logsDirectory: string = runFiles.logsDirectory;
/** Where each harness writes the secrets it handed out. */
export const secretsDirectory: string = runFiles.secretsDirectory;
/** The folder of the production build this run's files share, when Jest's global setup named one. */
export const sharedBuildDirectory: () => string | undefined = runFiles.sharedBuildDirectory;
