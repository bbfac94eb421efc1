// npm start: the gateway and every worker from the production build (dist/), configured only by the
// environment (see README). Run `npm run build` first. Signals are forwarded; each process drains.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApp, stopAll, WORKER_APPS } from './lib/processes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const children = ['gateway', ...WORKER_APPS].map((app) => startApp(root, app, process.env));
let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  await stopAll(children);
  process.exit(code);
};
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));
for (const child of children) {
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`${child.appName} exited (code ${code}); stopping the others`);
      void stop(code ?? 1);
    }
  });
}
