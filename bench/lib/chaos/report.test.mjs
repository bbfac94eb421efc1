import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHAOS_MODES } from './plan.mjs';
import { renderReport, verdictReasons } from './report.mjs';

const audit = (overrides = {}) => ({
  accountId: 'acct_1',
  balance: 99_000n,
  held: 0n,
  credits: 100_000n,
  captures: 1_000n,
  openHolds: 0n,
  openLeases: 0n,
  capturesWithoutSettlement: 0,
  balanced: true,
  withinOverdraft: true,
  ...overrides,
});

function cleanRun() {
  return {
    mode: 'smoke',
    settings: CHAOS_MODES.smoke,
    accountCount: 1,
    tally: {
      sent: 10,
      succeeded: 8,
      byStatusClass: [
        ['2xx', 8],
        ['no answer', 2],
      ],
      byFailure: [['connection refused', 2]],
      byRequestKind: [['native non-stream', { sent: 10, succeeded: 8 }]],
    },
    faults: [
      {
        fault: 'gateway',
        atMs: 4000,
        detail: 'SIGKILL; restarted and ready in 0.8 s',
        firstSuccessMs: 700,
        recoveryMs: 700,
        lastFailureMs: 500,
        failuresInWindow: [['connection refused', 2]],
      },
    ],
    unexpectedExits: [],
    settlement: {
      openHolds: 0,
      openLeases: 0,
      pendingSettlements: 0,
      failedSettlements: 0,
      requestLogRows: 8,
      settledAfterMs: 12_000,
      waitedMs: 12_000,
    },
    audits: [audit()],
    shutdown: [
      { name: 'gateway', exit: { code: 0, signal: null } },
      { name: 'worker-text', exit: { code: 0, signal: null } },
    ],
  };
}

test('a run with no death, nothing left open and a balanced audit is clean', () => {
  const run = cleanRun();
  assert.deepEqual(verdictReasons(run), []);
  const report = renderReport(run);
  assert.match(report, /Requests sent: 10; succeeded 8 \(80\.0 %\)/);
  assert.match(report, /2 connection refused/);
  assert.match(report, /recovered in 700 ms \(first success after 700 ms; last failure sent at \+500 ms\)/);
  assert.match(report, /acct_1 {2}balanced: balance 99,000 = credits 100,000 − captures 1,000/);
  assert.match(report, /Shutdown \(SIGTERM at the end\): all 2 processes exited with code 0/);
  assert.match(report, /Result: CLEAN/);
});

test('a process that did not stop cleanly is noted without making the run unclean', () => {
  const run = cleanRun();
  run.shutdown = [
    { name: 'gateway', exit: { code: 1, signal: null } },
    { name: 'worker-text', exit: null },
  ];
  assert.deepEqual(verdictReasons(run), []);
  assert.match(renderReport(run), /gateway exited with code 1, signal null; worker-text was not running/);
});

test('every way a run can fail is a reason of its own', () => {
  const run = cleanRun();
  run.unexpectedExits.push({
    name: 'gateway',
    atMs: 2140,
    code: 1,
    signal: null,
    stderr: ["throw er; // Unhandled 'error' event"],
    errorLogs: [],
    restartedInMs: 900,
  });
  run.faults.push({ fault: 'redis', atMs: 7000, error: 'found no Redis connection', failuresInWindow: [] });
  run.settlement = {
    ...run.settlement,
    settledAfterMs: null,
    waitedMs: 60_000,
    openLeases: 1,
    failedSettlements: 2,
  };
  run.audits = [audit({ balanced: false }), audit({ accountId: 'acct_2', withinOverdraft: false })];
  const reasons = verdictReasons(run);
  assert.deepEqual(reasons, [
    'gateway died unexpectedly at t=2.1 s (code 1, signal null)',
    'fault redis was not applied: found no Redis connection',
    'still open after 60.0 s: 0 holds, 1 leases, 0 settlement jobs',
    '2 settlement jobs failed',
    'account acct_1: the ledger audit does not balance',
    'account acct_2: balance below minus its overdraft limit',
  ]);
  const report = renderReport(run);
  assert.match(report, /Result: NOT CLEAN/);
  assert.match(report, /gateway at t=2\.1 s \(code 1, signal null\); restarted by the script in 900 ms/);
  assert.match(report, /stderr\| throw er; \/\/ Unhandled 'error' event/);
});

test('an audit that could not run, or a run stopped early, is unclean', () => {
  const run = { ...cleanRun(), audits: null, auditError: 'connect ECONNREFUSED' };
  assert.deepEqual(verdictReasons(run), ['ledger audit could not run: connect ECONNREFUSED']);
  const stopped = { ...cleanRun(), settlement: null, audits: null, abortedBy: 'Connection terminated' };
  assert.deepEqual(verdictReasons(stopped), ['the run stopped early: Connection terminated']);
});
