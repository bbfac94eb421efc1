import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyOutcome, errorMessageOf, tallyOutcomes } from './outcomes.mjs';

const NATIVE_OK = JSON.stringify({ candidates: [], usageMetadata: { totalTokenCount: 3 } });
const OPENAI_STREAM_OK = 'data: {"choices":[]}\n\ndata: [DONE]\n\n';

test('complete answers of each family are successes', () => {
  assert.deepEqual(classifyOutcome({ family: 'native', stream: false, status: 200, text: NATIVE_OK }), {
    ok: true,
    statusClass: '2xx',
    failure: null,
  });
  assert.equal(
    classifyOutcome({ family: 'openai', stream: true, status: 200, text: OPENAI_STREAM_OK }).ok,
    true,
  );
});

test('connection failures are named by what the client saw', () => {
  const failure = (errorCode) =>
    classifyOutcome({ family: 'native', stream: false, status: null, errorCode });
  assert.deepEqual(failure('ECONNREFUSED'), {
    ok: false,
    statusClass: 'no answer',
    failure: 'connection refused',
  });
  assert.equal(failure('UND_ERR_SOCKET').failure, 'connection reset');
  assert.equal(failure('ECONNRESET').failure, 'connection reset');
  assert.equal(failure('UND_ERR_HEADERS_TIMEOUT').failure, 'timeout');
  assert.equal(failure('EHOSTUNREACH').failure, 'connection error (EHOSTUNREACH)');
});

test('a 200 cut off or without its end is a failure of its own kind', () => {
  const cut = classifyOutcome({
    family: 'openai',
    stream: true,
    status: 200,
    text: 'data: {"choices":[]}\n\n',
    errorCode: 'UND_ERR_SOCKET',
  });
  assert.deepEqual(cut, { ok: false, statusClass: '2xx', failure: '200 cut off (connection reset)' });
  const unfinished = classifyOutcome({
    family: 'native',
    stream: true,
    status: 200,
    text: 'data: {"candidates":[]}\n\n',
  });
  assert.equal(unfinished.failure, '200 stream without its end');
  const errorEvent = classifyOutcome({
    family: 'native',
    stream: true,
    status: 200,
    text: 'data: {"error":{"code":503,"message":"The server is shutting down","status":"UNAVAILABLE"}}\n\n',
  });
  assert.equal(errorEvent.failure, '200 stream ended by an error event: The server is shutting down');
  const noUsage = classifyOutcome({
    family: 'native',
    stream: false,
    status: 200,
    text: '{"candidates":[]}',
  });
  assert.equal(noUsage.failure, '200 without a complete answer');
});

test('error answers carry their status and message, in either dialect', () => {
  const openai = classifyOutcome({
    family: 'openai',
    stream: false,
    status: 503,
    text: JSON.stringify({ error: { message: 'Billing is unavailable', type: 'server_error' } }),
  });
  assert.deepEqual(openai, { ok: false, statusClass: '5xx', failure: '503 Billing is unavailable' });
  const native = classifyOutcome({
    family: 'native',
    stream: false,
    status: 402,
    text: JSON.stringify({
      error: { code: 402, message: 'Insufficient balance', status: 'FAILED_PRECONDITION' },
    }),
  });
  assert.equal(native.failure, '402 Insufficient balance');
  assert.equal(native.statusClass, '4xx');
  assert.equal(errorMessageOf('upstream exploded'), 'upstream exploded');
  assert.equal(errorMessageOf(''), '(empty body)');
});

test('the tally counts requests, status classes, failure kinds (most frequent first) and request kinds', () => {
  const outcome = (family, stream, status, failure) => ({
    family,
    stream,
    ok: failure === null,
    statusClass: status === null ? 'no answer' : `${Math.floor(status / 100)}xx`,
    failure,
  });
  const tally = tallyOutcomes([
    outcome('native', false, 200, null),
    outcome('native', true, null, 'connection refused'),
    outcome('openai', false, 503, '503 Billing is unavailable'),
    outcome('openai', false, null, 'connection refused'),
    outcome('openai', true, 200, null),
  ]);
  assert.equal(tally.sent, 5);
  assert.equal(tally.succeeded, 2);
  assert.deepEqual(tally.byStatusClass, [
    ['2xx', 2],
    ['5xx', 1],
    ['no answer', 2],
  ]);
  assert.deepEqual(tally.byFailure, [
    ['connection refused', 2],
    ['503 Billing is unavailable', 1],
  ]);
  assert.deepEqual(Object.fromEntries(tally.byRequestKind)['OpenAI-style non-stream'], {
    sent: 2,
    succeeded: 0,
  });
});
