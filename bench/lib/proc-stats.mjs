// CPU time and memory of processes, read from /proc (Linux only). CPU figures are clock ticks
// (utime + stime) converted to microseconds; the machine total comes from the first line of /proc/stat.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second (`getconf CLK_TCK`), usually 100. */
export const CLOCK_TICKS_PER_SECOND = readClockTicks();

function readClockTicks() {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

export function ticksToMicroseconds(ticks, ticksPerSecond = CLOCK_TICKS_PER_SECOND) {
  return (ticks * 1_000_000) / ticksPerSecond;
}

/**
 * Fields of /proc/<pid>/stat. The command name (field 2) sits in parentheses and may itself hold
 * spaces or parentheses, so the numeric fields are counted from the last ')'.
 */
export function parseProcessStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/<pid>/stat line');
  const name = text.slice(text.indexOf('(') + 1, close);
  // After ") " comes field 3 (state); utime, stime, cutime, cstime are fields 14-17.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const number = (fieldNumber) => Number(fields[fieldNumber - 3]);
  return {
    name,
    state: fields[0],
    userTicks: number(14),
    systemTicks: number(15),
    childUserTicks: number(16),
    childSystemTicks: number(17),
    nice: number(19),
  };
}

/** VmRSS of /proc/<pid>/status, in bytes (0 when absent, e.g. a zombie). */
export function parseResidentBytes(statusText) {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(statusText);
  return match ? Number(match[1]) * 1024 : 0;
}

/** Busy and total ticks of all CPUs from the first ("cpu ") line of /proc/stat. */
export function parseMachineCpu(statText) {
  const line = statText.split('\n').find((candidate) => candidate.startsWith('cpu '));
  if (!line) throw new Error('no aggregate cpu line in /proc/stat');
  // user nice system idle iowait irq softirq steal (guest time is already counted in user).
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busyTicks: busy, totalTicks: busy + idle + iowait };
}

/** A file's text, or null when it cannot be read (a process that is gone). */
export function readOrNull(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** utime + stime of one process in ticks, or null once it is gone. */
export function readProcessTicks(pid) {
  return readProcessCpu(pid)?.ticks ?? null;
}

/** utime + stime of one process in ticks, and its stime alone; null once it is gone. */
function readProcessCpu(pid) {
  const text = readOrNull(`/proc/${pid}/stat`);
  if (!text) return null;
  const stat = parseProcessStat(text);
  return { ticks: stat.userTicks + stat.systemTicks, systemTicks: stat.systemTicks };
}

/** Ticks of this process and of its children that have exited and been reaped (wrk, the clients). */
export function readOwnTicks() {
  const stat = parseProcessStat(readFileSync('/proc/self/stat', 'utf8'));
  return {
    ownTicks: stat.userTicks + stat.systemTicks,
    reapedChildTicks: stat.childUserTicks + stat.childSystemTicks,
  };
}

export function readResidentBytes(pid) {
  const text = readOrNull(`/proc/${pid}/status`);
  return text ? parseResidentBytes(text) : 0;
}

export function readMachineCpu() {
  return parseMachineCpu(readFileSync('/proc/stat', 'utf8'));
}

/** Processes whose command line contains every given fragment (Postgres backends show their database). */
export function findProcesses(fragments) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = readOrNull(`/proc/${entry}/cmdline`);
    if (commandLine && fragments.every((fragment) => commandLine.includes(fragment)))
      pids.push(Number(entry));
  }
  return pids;
}

/**
 * A point-in-time reading of named process groups. Each group is a list of pids or a function that
 * finds them (Postgres backends come and go).
 */
export function takeSnapshot(groups) {
  const ticksByGroup = {};
  const systemTicksByGroup = {};
  for (const [name, source] of Object.entries(groups)) {
    const pids = typeof source === 'function' ? source() : source;
    const ticksByPid = {};
    const systemTicksByPid = {};
    for (const pid of pids) {
      const cpu = readProcessCpu(pid);
      if (cpu === null) continue;
      ticksByPid[pid] = cpu.ticks;
      systemTicksByPid[pid] = cpu.systemTicks;
    }
    ticksByGroup[name] = ticksByPid;
    systemTicksByGroup[name] = systemTicksByPid;
  }
  return {
    at: process.hrtime.bigint(),
    machine: readMachineCpu(),
    self: readOwnTicks(),
    ticksByGroup,
    systemTicksByGroup,
  };
}

/**
 * CPU used between two snapshots, in microseconds per group (`groupsSystemMicroseconds`: the part of it
 * spent in the kernel). A process that appeared in between counts from zero; one that vanished is lost
 * (its last ticks are not known).
 */
export function diffSnapshots(before, after, ticksPerSecond = CLOCK_TICKS_PER_SECOND) {
  const toMicroseconds = (ticks) => ticksToMicroseconds(ticks, ticksPerSecond);
  const perGroup = (beforeGroups = {}, afterGroups = {}) => {
    const microseconds = {};
    for (const [name, ticksByPid] of Object.entries(afterGroups)) {
      const earlier = beforeGroups[name] ?? {};
      let ticks = 0;
      for (const [pid, value] of Object.entries(ticksByPid)) ticks += value - (earlier[pid] ?? 0);
      microseconds[name] = toMicroseconds(ticks);
    }
    return microseconds;
  };
  return {
    wallMicroseconds: Number(after.at - before.at) / 1000,
    machineBusyMicroseconds: toMicroseconds(after.machine.busyTicks - before.machine.busyTicks),
    harnessMicroseconds: toMicroseconds(after.self.ownTicks - before.self.ownTicks),
    loadGeneratorMicroseconds: toMicroseconds(after.self.reapedChildTicks - before.self.reapedChildTicks),
    groupsMicroseconds: perGroup(before.ticksByGroup, after.ticksByGroup),
    groupsSystemMicroseconds: perGroup(before.systemTicksByGroup, after.systemTicksByGroup),
  };
}

/**
 * How much CPU, in cores, the rest of the machine used during a run: the machine total minus the named
 * groups (the target and what it needs), the load generator and the harness itself.
 */
export function otherCores(cpuDiff, accountedGroups) {
  const accounted =
    accountedGroups.reduce((sum, name) => sum + (cpuDiff.groupsMicroseconds[name] ?? 0), 0) +
    cpuDiff.harnessMicroseconds +
    cpuDiff.loadGeneratorMicroseconds;
  if (cpuDiff.wallMicroseconds <= 0) return 0;
  return Math.max(0, cpuDiff.machineBusyMicroseconds - accounted) / cpuDiff.wallMicroseconds;
}
