// Many concurrent open streams: opens `streams` streaming requests (in small batches, so the listen
// backlog is not the test), each paced by the simulator to stay open for seconds, and checks that every
// one completes. Run as a child of the harness, which samples the target's memory meanwhile:
//   node bench/lib/open-streams.mjs '<json: {url, headers, body, streams, endMarker, deadlineMs}>'
// Prints JSON lines: {"event":"all-open","afterMs":…} once every stream has sent its first byte, then
// {"event":"result", streams, completed, failed, peakOpen, allOpenAfterMs, durationMs, firstError, statuses}.
import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

const BATCH_SIZE = 50;
const BATCH_INTERVAL_MS = 10;
const TAIL_CHARS = 2048;

function emit(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

export async function holdOpenStreams(
  { url, headers, body, streams, endMarker, deadlineMs },
  onAllOpen = () => {},
) {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const payload = Buffer.from(body);
  const startedAt = Date.now();
  const requests = new Set();
  const statuses = {};
  let open = 0;
  let opened = 0;
  let peakOpen = 0;
  let completed = 0;
  let failed = 0;
  let firstError = null;
  let allOpenAfterMs = null;
  let settleAll;
  const allSettled = new Promise((resolve) => (settleAll = resolve));

  function settle(request, ok, error) {
    if (!requests.delete(request)) return;
    if (ok) completed += 1;
    else {
      failed += 1;
      firstError ??= error;
    }
    if (completed + failed === streams) settleAll();
  }

  function startOne() {
    let tail = '';
    let sentFirstByte = false;
    const request = httpRequest(url, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': payload.length, ...headers },
    });
    requests.add(request);
    request.once('response', (response) => {
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      response.on('data', (chunk) => {
        if (!sentFirstByte) {
          sentFirstByte = true;
          open += 1;
          opened += 1;
          peakOpen = Math.max(peakOpen, open);
          if (opened === streams) {
            allOpenAfterMs = Date.now() - startedAt;
            onAllOpen(allOpenAfterMs);
          }
        }
        tail = (tail + chunk).slice(-TAIL_CHARS);
      });
      response.once('end', () => {
        if (sentFirstByte) open -= 1;
        const ok = response.statusCode === 200 && tail.includes(endMarker);
        settle(request, ok, ok ? null : `status ${response.statusCode}, ends with: ${tail.slice(-200)}`);
      });
      response.once('error', (error) => settle(request, false, error.message));
    });
    request.once('error', (error) => settle(request, false, error.message));
    request.end(payload);
  }

  for (let index = 0; index < streams; index += 1) {
    startOne();
    if ((index + 1) % BATCH_SIZE === 0) await sleep(BATCH_INTERVAL_MS);
  }
  const deadline = sleep(deadlineMs, 'deadline', { ref: false });
  const outcome = await Promise.race([allSettled.then(() => 'settled'), deadline]);
  if (outcome === 'deadline') {
    for (const request of [...requests]) {
      settle(request, false, `not finished within ${deadlineMs} ms`);
      request.destroy();
    }
  }
  agent.destroy();
  return {
    streams,
    completed,
    failed,
    peakOpen,
    allOpenAfterMs,
    durationMs: Date.now() - startedAt,
    firstError,
    statuses,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await holdOpenStreams(JSON.parse(process.argv[2]), (afterMs) =>
    emit({ event: 'all-open', afterMs }),
  );
  emit({ event: 'result', ...result });
  process.exit(0);
}
