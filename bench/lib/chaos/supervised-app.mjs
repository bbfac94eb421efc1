// One process of the stack under test, started from dist/ and watched. Its output goes to a log file and
// its last lines are kept for the report; a kill or a stop by the script is expected, and any other exit
// is handed to `onUnexpectedExit`. (tools/lib/processes.mjs's startApp inherits or drops the output;
// here the output is kept, to say why a process died.)
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { waitForHttp } from '../../../tools/lib/processes.mjs';
import { exitSummary } from './exit-summary.mjs';

// Enough to hold a whole crash dump on stderr, and the last log records before it.
const TAIL_LINES = { stderr: 2000, stdout: 200 };
const TAIL_LINE_CHARS = 240;
const STOP_TIMEOUT_MS = 15_000;

function lineKeeper(limit) {
  const lines = [];
  let partial = '';
  return {
    add(chunk) {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop();
      for (const line of parts) if (line.trim()) lines.push(line.slice(0, TAIL_LINE_CHARS));
      lines.splice(0, Math.max(0, lines.length - limit));
    },
    lines: () => [...lines, ...(partial.trim() ? [partial.slice(0, TAIL_LINE_CHARS)] : [])].slice(-limit),
  };
}

/**
 * `readyUrl` (answers 2xx once ready) or `readyLine` (a text the process logs once ready) says when a
 * start is complete. `onUnexpectedExit({ name, code, signal, stderr, errorLogs })` receives what its output says about
 * why (see exit-summary.mjs).
 */
export function superviseApp({ root, app, name = app, env, logDir, readyUrl, readyLine, onUnexpectedExit }) {
  const logFile = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  let child = null;
  let exited = Promise.resolve();

  function start(timeoutMs = 60_000) {
    const startedAt = performance.now();
    const current = spawn(process.execPath, [join(root, 'dist', 'apps', app, 'src', 'main.js')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = current;
    current.expectedExit = false;
    const tails = { stdout: lineKeeper(TAIL_LINES.stdout), stderr: lineKeeper(TAIL_LINES.stderr) };
    let announceReady;
    const loggedReady = new Promise((resolve) => (announceReady = resolve));
    for (const stream of ['stdout', 'stderr']) {
      current[stream].setEncoding('utf8');
      current[stream].on('data', (chunk) => {
        logFile.write(chunk);
        tails[stream].add(chunk);
        if (readyLine && chunk.includes(readyLine)) announceReady();
      });
    }
    exited = new Promise((resolve) =>
      current.once('exit', (code, signal) => {
        if (!current.expectedExit) {
          const summary = exitSummary({ stderr: tails.stderr.lines(), stdout: tails.stdout.lines() });
          onUnexpectedExit({ name, code, signal, ...summary });
        }
        resolve({ code, signal });
      }),
    );
    const ready = readyUrl ? waitForHttp(readyUrl, timeoutMs) : loggedReady;
    const failed = exited.then(({ code, signal }) => {
      throw new Error(`${name} exited while starting (code ${code}, signal ${signal})`);
    });
    let timer;
    const late = new Promise((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${name} was not ready within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([ready, failed, late])
      .then(() => performance.now() - startedAt)
      .finally(() => clearTimeout(timer));
  }

  const running = () => child !== null && child.exitCode === null && child.signalCode === null;

  /** Ends the process with `signal` as an expected exit; resolves with { code, signal } once it is gone. */
  function end(signal) {
    if (!running()) return exited;
    const current = child;
    current.expectedExit = true;
    const timer = setTimeout(() => current.kill('SIGKILL'), STOP_TIMEOUT_MS);
    current.kill(signal);
    return exited.finally(() => clearTimeout(timer));
  }

  /** SIGKILL, then a fresh start (same environment, so the same port); resolves with the start's ms. */
  async function killAndRestart() {
    await end('SIGKILL');
    return start();
  }

  return {
    name,
    start,
    killAndRestart,
    /** SIGTERM; resolves with { code, signal }, or null when the process was not running. */
    stop: () => (running() ? end('SIGTERM') : Promise.resolve(null)).finally(() => logFile.end()),
    running,
    get pid() {
      return child?.pid;
    },
  };
}
