// Running wrk (the load generator) and reading its report.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const POST_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', 'wrk', 'post.lua');

/** wrk's version line, or null when it is not installed. */
export function wrkVersion() {
  const result = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (result.error) return null;
  const line = `${result.stdout}${result.stderr}`
    .split('\n')[0]
    .replace(/\s+Copyright.*$/, '')
    .trim();
  return line || 'wrk (unknown version)';
}

const TIME_UNITS_US = { us: 1, ms: 1_000, s: 1_000_000, m: 60_000_000, h: 3_600_000_000 };

/** "101.23us", "1.50ms", "2.00s", "1.00m" → microseconds. */
export function parseWrkDuration(text) {
  const match = /^(-?[\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!match) throw new Error(`not a wrk duration: ${text}`);
  return Number(match[1]) * TIME_UNITS_US[match[2]];
}

/**
 * The figures of one wrk run. Percentiles and counts come from the BENCH_JSON line printed by
 * wrk/post.lua's done() (exact microseconds) when present, otherwise from the text report
 * (`--latency` distribution, "N requests in T", "Socket errors", "Non-2xx or 3xx responses").
 */
export function parseWrkOutput(text) {
  const fromText = parseWrkText(text);
  const jsonLine = text.split('\n').find((line) => line.startsWith('BENCH_JSON '));
  if (!jsonLine) return fromText;
  const exact = JSON.parse(jsonLine.slice('BENCH_JSON '.length));
  const durationUs = exact.durationUs;
  const errors = {
    non2xx: exact.non2xx,
    connect: exact.connect,
    read: exact.read,
    write: exact.write,
    timeout: exact.timeout,
  };
  return {
    requests: exact.requests,
    durationUs,
    rps: durationUs > 0 ? (exact.requests * 1_000_000) / durationUs : 0,
    latencyUs: { mean: exact.meanUs, p50: exact.p50Us, p90: exact.p90Us, p99: exact.p99Us, max: exact.maxUs },
    errors: { ...errors, total: sumErrors(errors) },
    textLatencyUs: fromText.latencyUs,
  };
}

function sumErrors(errors) {
  return errors.non2xx + errors.connect + errors.read + errors.write + errors.timeout;
}

export function parseWrkText(text) {
  const totals = /(\d+) requests in ([\d.]+(?:us|ms|s|m|h)),/.exec(text);
  if (!totals) throw new Error(`wrk report without a request count:\n${text}`);
  const requests = Number(totals[1]);
  const durationUs = parseWrkDuration(totals[2]);
  const latencyUs = {};
  for (const [, percent, value] of text.matchAll(
    /^\s+(50|75|90|99)(?:\.0+)?%\s+([\d.]+(?:us|ms|s|m|h))\s*$/gm,
  )) {
    latencyUs[`p${percent}`] = parseWrkDuration(value);
  }
  const latencyLine = /^\s+Latency\s+([\d.]+(?:us|ms|s|m|h))\s+\S+\s+([\d.]+(?:us|ms|s|m|h))/m.exec(text);
  if (latencyLine) {
    latencyUs.mean = parseWrkDuration(latencyLine[1]);
    latencyUs.max = parseWrkDuration(latencyLine[2]);
  }
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  const errors = {
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    connect: socket ? Number(socket[1]) : 0,
    read: socket ? Number(socket[2]) : 0,
    write: socket ? Number(socket[3]) : 0,
    timeout: socket ? Number(socket[4]) : 0,
  };
  const reportedRps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  return {
    requests,
    durationUs,
    rps: reportedRps ? Number(reportedRps[1]) : (requests * 1_000_000) / durationUs,
    latencyUs,
    errors: { ...errors, total: sumErrors(errors) },
  };
}

/** The line wrk/post.lua prints once BENCH_MAX_REQUESTS answers have come back. */
const STOPPED_LINE = 'BENCH_STOPPED';

/**
 * One bounded wrk run: POST `bodyFile` with `headers` to `url`. Resolves with the parsed figures and
 * the raw report; rejects when wrk fails or prints no report. With `maxRequests` the run ends after
 * that many answers (at most `durationSeconds`): post.lua says so and wrk gets SIGINT, which makes it
 * report at once; `stoppedAfterUs` is then the time from the start to that answer.
 */
export function runWrk({
  url,
  connections,
  threads = 1,
  durationSeconds,
  timeoutSeconds = 10,
  bodyFile,
  headers,
  maxRequests,
}) {
  const args = [
    // The answer count of post.lua is per thread.
    `-t${maxRequests ? 1 : Math.min(threads, connections)}`,
    `-c${connections}`,
    `-d${durationSeconds}s`,
    `--timeout`,
    `${timeoutSeconds}s`,
    '--latency',
    '-s',
    POST_SCRIPT,
    url,
  ];
  const env = {
    ...process.env,
    BENCH_BODY_FILE: bodyFile,
    BENCH_HEADERS: Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n'),
    ...(maxRequests ? { BENCH_MAX_REQUESTS: String(maxRequests) } : {}),
  };
  return new Promise((resolve, reject) => {
    const startedAt = process.hrtime.bigint();
    const child = spawn('wrk', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stoppedAfterUs = null;
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (maxRequests && stoppedAfterUs === null && output.includes(STOPPED_LINE)) {
        stoppedAfterUs = Number(process.hrtime.bigint() - startedAt) / 1000;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    // A hard stop in case wrk hangs on a connection that never answers.
    const guard = setTimeout(() => child.kill('SIGKILL'), (durationSeconds + timeoutSeconds + 15) * 1000);
    child.once('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(guard);
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${output.trim()}`));
      try {
        resolve({ ...parseWrkOutput(output), args, report: output, stoppedAfterUs });
      } catch (error) {
        reject(error);
      }
    });
  });
}
