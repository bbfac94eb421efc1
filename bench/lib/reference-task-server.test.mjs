// The plain insert-and-enqueue's rows and answers: what it writes must be the gateway's row for the same
// body, or the creation ratio compares different work. (The server itself runs in the task scenario.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newVideoTaskId, queuedVideoObject, videoTaskWrites } from '../reference-task-server.mjs';
import { requestBody } from './scenarios.mjs';
import { BENCH_VIDEO_PRICES } from './targets.mjs';

const rawBody = requestBody('video-tasks', { prompt: 'A lighthouse at dawn', completionMs: 15000 });
const body = JSON.parse(rawBody);
const nowMs = Date.parse('2026-11-24T13:59:13.553Z');
const writes = () =>
  videoTaskWrites({ body, rawBody, price: BENCH_VIDEO_PRICES[0], taskId: 'video_x', nowMs });

test("the task row carries the gateway's planned call and price snapshot for the scenario's body", () => {
  const { task } = writes();
  // As VideoTaskService wrote them for this body and price in the smoke run of 2026-11-24 (gateway_bench).
  assert.deepEqual(JSON.parse(task.request), {
    kind: 'video',
    mode: 'text',
    size: '1280x720',
    clips: [],
    extras: {},
    family: 'delta-2',
    images: [],
    prompt: 'A lighthouse at dawn [[sim task_ms=15000]]',
    remixOf: null,
    seconds: 4,
    metadata: null,
    subjects: [],
    resolution: '720p',
    aspectRatio: null,
  });
  assert.deepEqual(JSON.parse(task.priceSnapshot), {
    kind: 'video',
    resolution: '720p',
    heldSeconds: 4,
    perCallMicros: '1000',
    perSecondMicros: '10000',
  });
  assert.match(task.requestHash, /^[0-9a-f]{64}$/);
  assert.equal(task.createdAt, '2026-11-24T13:59:13.553Z');
  assert.equal(task.deadlineAt, '2026-11-24T14:59:13.553Z');
});

test('the hold is the per-call price plus the seconds at the per-second price, for the deadline and an hour', () => {
  const { hold } = writes();
  assert.equal(hold.amountMicros, 41_000n);
  assert.equal(hold.ttlMs, 2 * 60 * 60_000);
});

test('the answer is a queued video object with the seconds as a string', () => {
  const { task } = writes();
  const answer = queuedVideoObject(task, body);
  assert.equal(answer.id, 'video_x');
  assert.equal(answer.object, 'video');
  assert.equal(answer.status, 'queued');
  assert.equal(answer.seconds, '4');
  assert.equal(answer.created_at, Math.floor(nowMs / 1000));
});

test('task ids have the shape of the gateway public ids and differ', () => {
  const [first, second] = [newVideoTaskId(), newVideoTaskId()];
  assert.match(first, /^video_[A-Za-z0-9_-]{22}$/);
  assert.notEqual(first, second);
});
