import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHAOS_MODES, FAULT_DESCRIPTIONS, plannedRequest, REQUEST_KINDS, requestBudget } from './plan.mjs';

test('requests take the four kinds in turn, and every account sends every kind', () => {
  const rate = { accountCount: 3, ratePerSecond: 100 };
  const planned = Array.from({ length: 24 }, (_, index) => plannedRequest(index, rate));
  const seen = new Set(
    planned.map((request) => `${request.accountIndex} ${request.family} ${request.stream}`),
  );
  assert.equal(seen.size, 3 * REQUEST_KINDS.length);
  assert.deepEqual(
    planned.slice(0, 4).map((request) => [request.family, request.stream]),
    REQUEST_KINDS.map((kind) => [kind.family, kind.stream]),
  );
});

test('each request goes to its route with a body of its family', () => {
  const [nativePlain, nativeStream, openaiPlain, openaiStream] = [0, 1, 2, 3].map((index) =>
    plannedRequest(index, { accountCount: 1, ratePerSecond: 1 }),
  );
  assert.match(nativePlain.path, /:generateContent$/);
  assert.match(nativeStream.path, /:streamGenerateContent\?alt=sse$/);
  assert.equal(openaiPlain.path, '/v1/chat/completions');
  assert.equal(JSON.parse(openaiStream.body).stream, true);
  assert.equal(JSON.parse(openaiPlain.body).stream, undefined);
  assert.ok(JSON.parse(nativeStream.body).contents[0].parts[0].text.includes('[[sim chunks='));
});

test('requests are due at the rate, and the budget is the rate over the duration', () => {
  assert.equal(plannedRequest(50, { accountCount: 2, ratePerSecond: 100 }).dueMs, 500);
  assert.equal(requestBudget({ loadMs: 30_000, ratePerSecond: 120 }), 3600);
});

test('every mode schedules known faults, in order, during the load', () => {
  for (const [mode, settings] of Object.entries(CHAOS_MODES)) {
    const times = settings.faults.map((fault) => fault.atMs);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      mode,
    );
    assert.ok(times.at(-1) < settings.loadMs, mode);
    for (const { fault } of settings.faults) assert.ok(FAULT_DESCRIPTIONS[fault], `${mode}: ${fault}`);
  }
});
