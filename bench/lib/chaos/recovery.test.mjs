import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recoveryAfterFaults } from './recovery.mjs';

const ok = (startMs, endMs) => ({ startMs, endMs, ok: true, failure: null });
const failed = (startMs, failure = 'connection refused') => ({
  startMs,
  endMs: startMs + 1,
  ok: false,
  failure,
});

test('a fault with no failure recovers with its first success', () => {
  const [fault] = recoveryAfterFaults(
    [{ fault: 'redis', atMs: 1000 }],
    [ok(900, 1010), ok(1005, 1030), ok(1020, 1025)],
  );
  assert.equal(fault.firstSuccessMs, 25);
  assert.equal(fault.recoveryMs, 25);
  assert.equal(fault.lastFailureMs, null);
  assert.deepEqual(fault.failuresInWindow, []);
});

test('recovery counts from the fault to the first success sent after its last failure', () => {
  // One request still succeeds after the fault, then the process dies and requests are refused.
  const outcomes = [
    ok(1001, 1010),
    failed(1100),
    failed(1200),
    failed(1300, 'connection reset'),
    ok(1400, 1450),
  ];
  const [fault] = recoveryAfterFaults([{ fault: 'postgres', atMs: 1000 }], outcomes);
  assert.equal(fault.firstSuccessMs, 10);
  assert.equal(fault.lastFailureMs, 300);
  assert.equal(fault.recoveryMs, 450);
  assert.deepEqual(fault.failuresInWindow, [
    ['connection refused', 2],
    ['connection reset', 1],
  ]);
});

test("each fault's failures end where the next fault starts", () => {
  const faults = [
    { fault: 'gateway', atMs: 1000 },
    { fault: 'worker-text', atMs: 2000 },
  ];
  const [gateway, worker] = recoveryAfterFaults(faults, [
    failed(1100),
    ok(1200, 1260),
    failed(2100, '503 Billing'),
  ]);
  assert.deepEqual(gateway.failuresInWindow, [['connection refused', 1]]);
  assert.equal(gateway.recoveryMs, 260);
  assert.deepEqual(worker.failuresInWindow, [['503 Billing', 1]]);
  assert.equal(worker.recoveryMs, null, 'no success after its last failure');
  assert.equal(worker.firstSuccessMs, null);
});

test('the earliest answer counts, not the earliest sent', () => {
  const [fault] = recoveryAfterFaults([{ fault: 'gateway', atMs: 0 }], [failed(10), ok(20, 500), ok(30, 60)]);
  assert.equal(fault.recoveryMs, 60);
});

test('a request in flight when a process is killed fails because of that kill, not the fault before', () => {
  const faults = [
    { fault: 'postgres', atMs: 1000 },
    { fault: 'gateway', atMs: 2000 },
  ];
  const inFlight = { startMs: 1990, endMs: 2003, ok: false, failure: 'connection reset' };
  const [postgres, gateway] = recoveryAfterFaults(faults, [
    ok(1500, 1510),
    inFlight,
    failed(2050),
    ok(2600, 2620),
  ]);
  assert.deepEqual(postgres.failuresInWindow, []);
  assert.equal(postgres.recoveryMs, 510);
  assert.deepEqual(gateway.failuresInWindow, [
    ['connection refused', 1],
    ['connection reset', 1],
  ]);
  assert.equal(gateway.lastFailureMs, 50);
  assert.equal(gateway.recoveryMs, 620);
});
