// The closing figures of a chaos run, as text, and the verdict that sets the exit code: clean when no
// process died unless the script killed it, every fault was applied, nothing stayed open after the
// wait, no settlement job failed, and every account's audit balanced within its overdraft.
import { FAULT_DESCRIPTIONS } from './plan.mjs';

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const duration = (ms) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);
const percent = (part, whole) => (whole === 0 ? '0' : ((part / whole) * 100).toFixed(1));
const micros = (value) => BigInt(value).toLocaleString('en-US');

/** Why the run is not clean; an empty list when it is. */
export function verdictReasons(run) {
  const reasons = run.abortedBy ? [`the run stopped early: ${run.abortedBy}`] : [];
  for (const exit of run.unexpectedExits) {
    reasons.push(
      `${exit.name} died unexpectedly at t=${seconds(exit.atMs)} (code ${exit.code}, signal ${exit.signal})`,
    );
  }
  for (const fault of run.faults)
    if (fault.error) reasons.push(`fault ${fault.fault} was not applied: ${fault.error}`);
  const { settlement } = run;
  if (settlement && settlement.settledAfterMs === null) {
    reasons.push(
      `still open after ${seconds(settlement.waitedMs)}: ${settlement.openHolds} holds, ${settlement.openLeases} leases, ${settlement.pendingSettlements} settlement jobs`,
    );
  }
  if (settlement?.failedSettlements > 0)
    reasons.push(`${settlement.failedSettlements} settlement jobs failed`);
  if (run.auditError) reasons.push(`ledger audit could not run: ${run.auditError}`);
  for (const audit of run.audits ?? []) {
    if (!audit.balanced) reasons.push(`account ${audit.accountId}: the ledger audit does not balance`);
    if (!audit.withinOverdraft)
      reasons.push(`account ${audit.accountId}: balance below minus its overdraft limit`);
  }
  return reasons;
}

function renderFault(fault) {
  const action = fault.error ? `NOT APPLIED: ${fault.error}` : fault.detail;
  const head = `  t=${seconds(fault.atMs).padStart(7)}  ${fault.fault.padEnd(12)} ${action}`;
  const firstSuccess =
    fault.firstSuccessMs === null
      ? 'no request sent after it succeeded'
      : `first success after ${duration(fault.firstSuccessMs)}`;
  let recovery;
  if (fault.lastFailureMs === null) recovery = `no failure; ${firstSuccess}`;
  else if (fault.recoveryMs === null)
    recovery = `NOT RECOVERED (last failure sent at +${duration(fault.lastFailureMs)})`;
  else {
    recovery = `recovered in ${duration(fault.recoveryMs)} (${firstSuccess}; last failure sent at +${duration(fault.lastFailureMs)})`;
  }
  const failures = fault.failuresInWindow.map(([kind, count]) => `${count} ${kind}`).join('; ');
  return [
    head,
    `             ${recovery}`,
    ...(failures ? [`             until the next fault: ${failures}`] : []),
  ];
}

function renderExit(exit) {
  const restart =
    typeof exit.restartedInMs === 'number'
      ? `restarted by the script in ${duration(exit.restartedInMs)}`
      : `not restarted${exit.restartError ? `: ${exit.restartError}` : ''}`;
  return [
    `  ${exit.name} at t=${seconds(exit.atMs)} (code ${exit.code}, signal ${exit.signal}); ${restart}`,
    ...exit.stderr.map((line) => `      stderr| ${line}`),
    ...exit.errorLogs.map((line) => `      log   | ${line}`),
  ];
}

function renderAudit(audit) {
  const state = audit.balanced ? 'balanced' : 'NOT BALANCED';
  const overdraft = audit.withinOverdraft ? '' : ' BELOW OVERDRAFT';
  return (
    `  ${audit.accountId}  ${state}${overdraft}: balance ${micros(audit.balance)} = credits ${micros(audit.credits)}` +
    ` − captures ${micros(audit.captures)}; held ${micros(audit.held)} = open holds ${micros(audit.openHolds)}` +
    ` + open leases ${micros(audit.openLeases)}; captures without settlement ${audit.capturesWithoutSettlement}`
  );
}

/** How the processes ended when the script stopped them: a note, not part of the verdict. */
function describeShutdown(shutdown) {
  const unusual = shutdown.filter(({ exit }) => exit === null || exit.code !== 0);
  if (unusual.length === 0) return `all ${shutdown.length} processes exited with code 0`;
  return unusual
    .map(({ name, exit }) =>
      exit === null
        ? `${name} was not running`
        : `${name} exited with code ${exit.code}, signal ${exit.signal}`,
    )
    .join('; ');
}

/** The report printed at the end of a run (see bench/chaos.mjs for the shape of `run`). */
export function renderReport(run) {
  const { tally, settings, settlement } = run;
  const lines = [
    `Chaos run (${run.mode}): ${seconds(settings.loadMs)} of load at up to ${settings.ratePerSecond} req/s,` +
      ` ${settings.concurrency} connections, ${run.accountCount} accounts, ${run.faults.length} faults`,
    '',
    `Requests sent: ${tally.sent}; succeeded ${tally.succeeded} (${percent(tally.succeeded, tally.sent)} %)`,
    ...tally.byRequestKind.map(
      ([label, { sent, succeeded }]) => `  ${label.padEnd(24)} ${sent} sent, ${succeeded} succeeded`,
    ),
    `Answers by status class: ${tally.byStatusClass.map(([name, count]) => `${name} ${count}`).join(' · ')}`,
    'Failures by kind:',
    ...(tally.byFailure.length === 0
      ? ['  none']
      : tally.byFailure.map(([kind, count]) => `  ${String(count).padStart(6)}  ${kind}`)),
    '',
    'Faults (recovery: from the fault to the end of the first success sent after its last failure):',
    ...run.faults.flatMap(renderFault),
    '',
    `Unexpected exits: ${run.unexpectedExits.length === 0 ? 'none' : run.unexpectedExits.length}`,
    ...run.unexpectedExits.flatMap(renderExit),
  ];
  if (settlement) {
    const state =
      settlement.settledAfterMs === null
        ? `still open after ${seconds(settlement.waitedMs)}: ${settlement.openHolds} holds, ${settlement.openLeases} leases, ${settlement.pendingSettlements} settlement jobs`
        : `no hold, lease or settlement job open ${seconds(settlement.settledAfterMs)} after the load`;
    lines.push(
      '',
      `Settlement: ${state}; ${settlement.failedSettlements} failed settlement jobs; ${settlement.requestLogRows} request log rows`,
    );
  }
  if (run.shutdown) lines.push('', `Shutdown (SIGTERM at the end): ${describeShutdown(run.shutdown)}`);
  lines.push('', 'Ledger audit (LedgerAudit.auditAccount per account):');
  if (run.auditError) lines.push(`  could not run: ${run.auditError}`);
  lines.push(...(run.audits ?? []).map(renderAudit));
  const reasons = verdictReasons(run);
  lines.push(
    '',
    reasons.length === 0
      ? 'Result: CLEAN'
      : `Result: NOT CLEAN\n${reasons.map((reason) => `  - ${reason}`).join('\n')}`,
    '',
    'Faults applied:',
    ...run.faults.map((fault) => `  ${fault.fault}: ${FAULT_DESCRIPTIONS[fault.fault]}`),
  );
  return lines.join('\n');
}
