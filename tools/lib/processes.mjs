// Starting and stopping the production processes (gateway, workers, simulators) from dist/.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const WORKER_APPS = ['worker-text', 'worker-image', 'worker-video', 'worker-assets'];

export function startApp(root, app, env, { quiet = false, nodeFlags = [], wrapper = [] } = {}) {
  const entry = join(root, 'dist', 'apps', app, 'src', 'main.js');
  // `wrapper`: a command that runs node (the bench's --callgrind starts the gateway under valgrind).
  const [command, ...args] = [...wrapper, process.execPath, ...nodeFlags, entry];
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
  });
  child.appName = app;
  return child;
}

/** SIGTERM to every child, then wait for all of them (each shuts down gracefully). */
export function stopAll(children, timeoutMs = 15000) {
  return Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

export async function waitForHttp(url, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
      lastError = new Error(`${url} answered ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become ready: ${lastError?.message ?? 'timeout'}`);
}
