import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import {
  alphaReferenceBody,
  BODY_MEMORY_BYTES,
  bodyMemoryFigures,
  describeBodyMemory,
  formatMiB,
  parsePeakResidentBytes,
  runBodyMemoryRound,
  summarizeBodyMemory,
} from './body-memory.mjs';

const MIB = 1024 * 1024;

test('the alpha body is exactly 20 MiB of valid JSON whose one image is a 256×256 PNG padded with zeros', () => {
  const body = alphaReferenceBody(BODY_MEMORY_BYTES);
  assert.equal(body.length, 20 * MIB);
  const message = JSON.parse(body.toString());
  assert.equal(message.model, 'alphaq2-pro');
  assert.equal(message.duration, 5);
  assert.equal(message.resolution, '720p');
  assert.match(message.prompt, /@cat\s*$/);
  assert.equal(message.subjects.length, 1);
  assert.equal(message.subjects[0].id, 'cat');
  const [image] = message.subjects[0].images;
  assert.ok(image.startsWith('data:image/png;base64,'));
  const bytes = Buffer.from(image.slice('data:image/png;base64,'.length), 'base64');
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR');
  assert.equal(bytes.readUInt32BE(16), 256);
  assert.equal(bytes.readUInt32BE(20), 256);
  assert.ok(bytes.subarray(-1024).every((byte) => byte === 0));
});

test('every size is hit exactly, whatever its remainder modulo four', () => {
  for (const size of [4096, 4097, 4098, 4099]) assert.equal(alphaReferenceBody(size).length, size);
  assert.throws(() => alphaReferenceBody(100), /needs more than 100 bytes/);
});

test('the peak RSS is read from VmHWM in bytes, and is missing without it', () => {
  const status = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  236128 kB\nVmRSS:\t   42560 kB\n';
  assert.equal(parsePeakResidentBytes(status), 236128 * 1024);
  assert.equal(parsePeakResidentBytes('Name:\tnode\nVmRSS:\t 42560 kB\n'), null);
});

test('growth is the peak over the RSS before, as a multiple of the body; both may be negative', () => {
  const figures = bodyMemoryFigures({
    bodyBytes: 20 * MIB,
    rssBeforeBytes: 100 * MIB,
    peakBytes: 150 * MIB,
    rssAfterBytes: 110 * MIB,
    answerMs: 80,
  });
  assert.equal(figures.growthBytes, 50 * MIB);
  assert.equal(figures.ratio, 2.5);
  assert.equal(figures.retainedBytes, 10 * MIB);
  const shrunk = bodyMemoryFigures({
    bodyBytes: 20 * MIB,
    rssBeforeBytes: 100 * MIB,
    peakBytes: 99 * MIB,
    rssAfterBytes: 90 * MIB,
    answerMs: 80,
  });
  assert.equal(shrunk.ratio, -0.05);
  assert.equal(formatMiB(shrunk.retainedBytes), '−10.0');
  assert.equal(formatMiB(-1000), '0.0');
  assert.equal(formatMiB(undefined), '—');
});

function round(number, growthMiB, extra = {}) {
  return {
    round: number,
    requests: 1,
    errors: { total: 0, firstFailure: null },
    bodyMemory: bodyMemoryFigures({
      bodyBytes: 20 * MIB,
      rssBeforeBytes: 100 * MIB,
      peakBytes: (100 + growthMiB) * MIB,
      rssAfterBytes: 104 * MIB,
      answerMs: 90,
    }),
    ...extra,
  };
}

test('the medians use the measured rounds that answered a task, not the check request or a refusal', () => {
  const summary = summarizeBodyMemory([
    round(0, 90),
    round(1, 40),
    round(2, 60),
    round(3, 50),
    round(4, 2, { errors: { total: 1, firstFailure: 'status 413: too large' } }),
    { round: 5, requests: 0, failure: 'request failed: other side closed', errors: { total: 0 } },
  ]);
  assert.equal(summary.roundsUsed, 3);
  assert.equal(summary.growthBytes, 50 * MIB);
  assert.equal(summary.ratio, 2.5);
  assert.equal(summary.retainedBytes, 4 * MIB);
  assert.equal(summary.first.growthBytes, 90 * MIB);
  assert.deepEqual(
    summary.rounds.map(({ round: number, problem }) => [number, problem]),
    [
      [1, null],
      [2, null],
      [3, null],
      [4, 'status 413: too large'],
      [5, 'request failed: other side closed'],
    ],
  );
  assert.equal(summary.rounds[4].figures, null);
  assert.equal(summarizeBodyMemory([round(0, 90)]).ratio, null);
});

test('the progress line names the growth, the ratio and what stayed', () => {
  assert.equal(
    describeBodyMemory(round(1, 45)),
    'peak growth 45.0 MiB = 2.25× the 20.0 MiB body (RSS before 100.0 MiB, retained after 1 s 4.0 MiB, ' +
      'answer 90 ms) errors 0',
  );
});

/** A stand-in for the gateway in this process: reads the whole body, answers `answer`, counts connections. */
async function startServer(answer) {
  const seen = { bytes: [], connections: 0 };
  const server = createServer(async (incoming, outgoing) => {
    let bytes = 0;
    for await (const chunk of incoming) bytes += chunk.length;
    seen.bytes.push(bytes);
    outgoing.writeHead(answer.status, { 'content-type': 'application/json' });
    outgoing.end(JSON.stringify(answer.body));
  });
  server.on('connection', () => (seen.connections += 1));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  return { seen, target: { baseUrl, mainPid: process.pid }, close: () => server.close() };
}

test('a round sends the whole body on a fresh connection each time and counts a refusal as an error', async () => {
  const body = alphaReferenceBody(MIB);
  const accepting = await startServer({ status: 200, body: { task_id: 'task-1', status: 'submitted' } });
  try {
    for (let index = 0; index < 2; index += 1) {
      const record = await runBodyMemoryRound({
        target: accepting.target,
        family: 'alpha-reference',
        headers: { authorization: 'Bearer k' },
        body,
      });
      assert.equal(record.requests, 1);
      assert.deepEqual(record.errors, { total: 0, firstFailure: null });
      assert.equal(record.bodyMemory.bodyBytes, MIB);
      assert.equal(record.bodyMemory.ratio, record.bodyMemory.growthBytes / MIB);
    }
    assert.deepEqual(accepting.seen.bytes, [MIB, MIB]);
    assert.equal(accepting.seen.connections, 2);
  } finally {
    accepting.close();
  }
  const refusing = await startServer({ status: 413, body: { code: 413, reason: 'BadRequest' } });
  try {
    const record = await runBodyMemoryRound({
      target: refusing.target,
      family: 'alpha-reference',
      headers: {},
      body,
    });
    assert.equal(record.errors.total, 1);
    assert.match(record.errors.firstFailure, /^status 413/);
  } finally {
    refusing.close();
  }
});
