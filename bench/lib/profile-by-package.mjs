// Self time of a V8 CPU profile (node --cpu-prof) grouped by where the code lives: an npm package
// (node_modules/<pkg>), a project folder (apps/<app>, libs/<lib>, bench), Node's own JavaScript
// (node:*), V8 builtins without a script, WebAssembly, or V8's pseudo-frames (GC, program, idle).
// Optionally only the samples inside time windows (the load runs, not start-up) count: profile
// timestamps and process.hrtime() share the monotonic clock, in microseconds.
//   node bench/lib/profile-by-package.mjs <file.cpuprofile | folder> [--top 15]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PSEUDO_FRAMES = new Set(['(idle)', '(garbage collector)', '(program)', '(root)']);

/** The group one stack frame belongs to. */
export function groupOfFrame({ functionName, url }, projectRoot = PROJECT_ROOT) {
  if (!url) return PSEUDO_FRAMES.has(functionName) ? functionName : '(V8 builtins and native code)';
  if (url.startsWith('node:')) return 'node internals (node:*)';
  if (url.startsWith('wasm://')) return 'WebAssembly (wasm://)';
  if (!url.startsWith('file://') && !url.startsWith('/')) return `other (${url})`;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const modulesAt = path.lastIndexOf('/node_modules/');
  if (modulesAt >= 0) {
    const [scopeOrName, name] = path.slice(modulesAt + '/node_modules/'.length).split('/');
    return scopeOrName.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName;
  }
  const inProject = relative(projectRoot, path);
  if (!inProject.startsWith('..') && !inProject.startsWith('/')) {
    const segments = inProject.split('/').filter((segment) => segment !== 'dist');
    const srcAt = segments.indexOf('src');
    if (srcAt > 0) return segments.slice(0, srcAt).join('/');
    return segments.slice(0, 2).join('/');
  }
  return `other (${path})`;
}

/**
 * Self time per sampled node, in microseconds. A sample lasts until the next one (as DevTools counts
 * it); the last sample, whose end is unknown, gets the mean interval. With `windows`
 * ([{ startUs, endUs }]), only samples taken inside one of them count.
 */
function selfTimeByNode(profile, windows) {
  const { samples, timeDeltas, startTime } = profile;
  const meanInterval =
    timeDeltas.length > 1
      ? timeDeltas.slice(1).reduce((sum, value) => sum + value, 0) / (timeDeltas.length - 1)
      : 0;
  const inWindow = (at) => !windows || windows.some((window) => at >= window.startUs && at <= window.endUs);
  const totals = new Map();
  let at = startTime;
  for (let index = 0; index < samples.length; index += 1) {
    at += timeDeltas[index];
    if (!inWindow(at)) continue;
    const duration = Math.max(0, index + 1 < timeDeltas.length ? timeDeltas[index + 1] : meanInterval);
    totals.set(samples[index], (totals.get(samples[index]) ?? 0) + duration);
  }
  return totals;
}

/** Self time per group, in microseconds. */
export function selfTimeByGroup(profile, projectRoot = PROJECT_ROOT, windows = null) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map();
  for (const [id, selfUs] of selfTimeByNode(profile, windows)) {
    const group = nodes.has(id) ? groupOfFrame(nodes.get(id).callFrame, projectRoot) : '(unknown)';
    totals.set(group, (totals.get(group) ?? 0) + selfUs);
  }
  return totals;
}

/** Self time per function (name, file, line), in microseconds: what sits inside the opaque groups. */
export function selfTimeByFunction(profile, projectRoot = PROJECT_ROOT, windows = null) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map();
  for (const [id, selfUs] of selfTimeByNode(profile, windows)) {
    const frame = nodes.get(id)?.callFrame ?? { functionName: '(unknown)', url: '' };
    const where = frame.url ? `${basename(frame.url)}:${(frame.lineNumber ?? -1) + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'}\u0000${where}\u0000${groupOfFrame(frame, projectRoot)}`;
    totals.set(key, (totals.get(key) ?? 0) + selfUs);
  }
  return totals;
}

/** Entries sorted by self time, with their share of the busy time (everything but idle). */
export function rankGroups(totals) {
  const isIdle = (key) => key === '(idle)' || key.startsWith('(idle)\u0000');
  const busy = [...totals].filter(([key]) => !isIdle(key)).reduce((sum, [, value]) => sum + value, 0);
  return [...totals]
    .map(([group, selfUs]) => ({
      group,
      selfMs: selfUs / 1000,
      shareOfBusy: isIdle(group) || busy === 0 ? null : selfUs / busy,
    }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

export function profileFiles(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(path, name));
}

/**
 * Merged rankings of every profile at `path` (a file or a folder of them). When windows are given but
 * no sample falls inside them, the whole profile is used and `windowed` says so.
 */
export function groupProfiles(path, { projectRoot = PROJECT_ROOT, windows = null } = {}) {
  const files = profileFiles(path);
  const profiles = files.map((file) => JSON.parse(readFileSync(file, 'utf8')));
  const merge = (reader, selected) => {
    const merged = new Map();
    for (const profile of profiles) {
      for (const [key, value] of reader(profile, projectRoot, selected))
        merged.set(key, (merged.get(key) ?? 0) + value);
    }
    return merged;
  };
  let windowed = Boolean(windows?.length);
  let groups = merge(selfTimeByGroup, windowed ? windows : null);
  if (windowed && groups.size === 0) {
    windowed = false;
    groups = merge(selfTimeByGroup, null);
  }
  const functions = merge(selfTimeByFunction, windowed ? windows : null);
  return { files, windowed, ranking: rankGroups(groups), functions: rankGroups(functions) };
}

export function renderRanking(ranking, top = 15) {
  const isIdle = (row) => row.shareOfBusy === null;
  const busyMs = ranking.filter((row) => !isIdle(row)).reduce((sum, row) => sum + row.selfMs, 0);
  const idle = ranking.filter(isIdle).reduce((sum, row) => sum + row.selfMs, 0);
  const rows = ranking
    .filter((row) => !isIdle(row))
    .slice(0, top)
    .map((row, index) => {
      const cells = row.group.split('\u0000');
      return `| ${index + 1} | ${cells.join(' | ')} | ${row.selfMs.toFixed(1)} | ${(row.shareOfBusy * 100).toFixed(1)} % |`;
    });
  const columns = ranking[0]?.group.includes('\u0000') ? ['function', 'where', 'group'] : ['group'];
  return [
    `Busy self time ${busyMs.toFixed(0)} ms${idle > 0 ? ` (idle ${idle.toFixed(0)} ms not counted)` : ''}.`,
    '',
    `| # | ${columns.join(' | ')} | self ms | share of busy |`,
    `|---|${columns.map(() => '---|').join('')}---|---|`,
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, flag, value] = process.argv.slice(2);
  if (!path) {
    console.error('usage: node bench/lib/profile-by-package.mjs <file.cpuprofile | folder> [--top 15]');
    process.exit(2);
  }
  const top = flag === '--top' ? Number(value) : 15;
  const { files, ranking, functions } = groupProfiles(path);
  console.log(`${files.length} profile(s): ${files.join(', ')}\n`);
  console.log(`${renderRanking(ranking, top)}\n\nTop functions:\n\n${renderRanking(functions, top)}`);
}
