import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  diffSnapshots,
  otherCores,
  parseMachineCpu,
  parseProcessStat,
  parseResidentBytes,
  readOwnTicks,
  readProcessTicks,
  readResidentBytes,
  ticksToMicroseconds,
} from './proc-stats.mjs';

test('a stat line is read from the last parenthesis, so odd command names do not shift the fields', () => {
  const line =
    '4242 (node (main) x) S 1 4242 4242 0 -1 4194560 9000 0 0 0 1234 567 89 10 20 0 11 0 100 1000000 5000 ' +
    '18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n';
  const stat = parseProcessStat(line);
  assert.equal(stat.name, 'node (main) x');
  assert.equal(stat.state, 'S');
  assert.equal(stat.userTicks, 1234);
  assert.equal(stat.systemTicks, 567);
  assert.equal(stat.childUserTicks, 89);
  assert.equal(stat.childSystemTicks, 10);
  assert.equal(stat.nice, 0);
});

test('VmRSS is read in bytes; a zombie without it reads 0', () => {
  assert.equal(
    parseResidentBytes('Name:\tnode\nVmPeak:\t  999 kB\nVmRSS:\t   81920 kB\nRssAnon:\t 1 kB\n'),
    81920 * 1024,
  );
  assert.equal(parseResidentBytes('Name:\tnode\nState:\tZ (zombie)\n'), 0);
});

test('machine CPU: busy excludes idle and iowait, total includes them', () => {
  const text = 'cpu  100 5 50 1000 20 3 2 1 0 0\ncpu0 50 2 25 500 10 1 1 0 0 0\nintr 1 2 3\n';
  assert.deepEqual(parseMachineCpu(text), { busyTicks: 161, totalTicks: 1181 });
});

test('ticks convert to microseconds with the clock rate', () => {
  assert.equal(ticksToMicroseconds(3, 100), 30_000);
  assert.equal(ticksToMicroseconds(3, 250), 12_000);
});

const snapshot = (atUs, busyTicks, own, reaped, groups, systemGroups = {}) => ({
  at: BigInt(atUs * 1000),
  machine: { busyTicks, totalTicks: busyTicks * 2 },
  self: { ownTicks: own, reapedChildTicks: reaped },
  ticksByGroup: groups,
  systemTicksByGroup: systemGroups,
});

test('a diff sums each group over its processes, counting a new process from zero', () => {
  const before = snapshot(0, 1000, 10, 5, { main: { 1: 100 }, postgres: { 7: 40 } }, { main: { 1: 30 } });
  const after = snapshot(
    2_000_000,
    1300,
    12,
    55,
    { main: { 1: 180 }, postgres: { 7: 50, 8: 30 } },
    { main: { 1: 55 }, postgres: { 7: 45, 8: 4 } },
  );
  const diff = diffSnapshots(before, after, 100);
  assert.equal(diff.wallMicroseconds, 2_000_000);
  assert.equal(diff.groupsMicroseconds.main, 800_000);
  assert.equal(diff.groupsMicroseconds.postgres, 400_000);
  // The kernel's part of it, by the same rules (Postgres's process 7 had no reading before).
  assert.equal(diff.groupsSystemMicroseconds.main, 250_000);
  assert.equal(diff.groupsSystemMicroseconds.postgres, 490_000);
  assert.equal(diff.harnessMicroseconds, 20_000);
  assert.equal(diff.loadGeneratorMicroseconds, 500_000);
  assert.equal(diff.machineBusyMicroseconds, 3_000_000);
  // 3.0 s busy − (0.8 + 0.4 + 0.02 + 0.5) s accounted = 1.28 s over 2 s of wall time.
  assert.ok(Math.abs(otherCores(diff, ['main', 'postgres']) - 0.64) < 1e-9);
  // Postgres not counted as the target's: it becomes "other".
  assert.ok(Math.abs(otherCores(diff, ['main']) - 0.84) < 1e-9);
});

test('the live readers see this very process', () => {
  assert.ok(readProcessTicks(process.pid) >= 0);
  assert.equal(readProcessTicks(2 ** 30), null);
  assert.ok(readResidentBytes(process.pid) > 1024 * 1024);
  const own = readOwnTicks();
  assert.ok(own.ownTicks >= 0 && own.reapedChildTicks >= 0);
});
