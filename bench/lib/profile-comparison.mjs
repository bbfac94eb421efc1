// Self time per function per request, this build against the baseline, from one `--profile
// --baseline <commit>` run: which functions a change made dearer, where the whole-process ratio only
// says that it did. Each build's samples count only inside its own measured runs (round ≥ 1), divided
// by the requests those runs served.
//   node bench/lib/profile-comparison.mjs <bench/results/<run>> [--scenario throughput] [--top 40]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineFolder } from './baseline-build.mjs';
import { profileFiles, selfTimeByFunction } from './profile-by-package.mjs';

const IDLE = '(idle)';

/** Microseconds of self time per request, by function (name, file and group; line numbers dropped). */
export function selfTimePerRequest(profiles, { projectRoot, windows, requests }) {
  const perRequest = new Map();
  for (const profile of profiles) {
    for (const [key, micros] of selfTimeByFunction(profile, projectRoot, windows)) {
      const [name, where, group] = key.split('\u0000');
      if (name === IDLE) continue;
      // Line numbers differ between builds for the same function: compare by file.
      const byFile = [name, where.replace(/:\d+$/, ''), group].join('\u0000');
      perRequest.set(byFile, (perRequest.get(byFile) ?? 0) + micros / requests);
    }
  }
  return perRequest;
}

/** Every function of either build, with both figures and their difference, most grown first. */
export function compareBuilds(current, baseline) {
  const keys = new Set([...current.keys(), ...baseline.keys()]);
  return [...keys]
    .map((key) => {
      const [name, where, group] = key.split('\u0000');
      const currentUs = current.get(key) ?? 0;
      const baselineUs = baseline.get(key) ?? 0;
      return { name, where, group, currentUs, baselineUs, grownUs: currentUs - baselineUs };
    })
    .sort((a, b) => b.grownUs - a.grownUs);
}

function buildFigures(resultsDir, raw, { target, folder, projectRoot, scenario }) {
  const runs = raw.runs.filter(
    (run) =>
      run.target === target && run.round >= 1 && run.windowUs && (!scenario || run.scenario === scenario),
  );
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  if (requests === 0)
    throw new Error(`no measured ${target} run${scenario ? ` of ${scenario}` : ''} in ${resultsDir}`);
  const profiles = profileFiles(join(resultsDir, folder)).map((file) =>
    JSON.parse(readFileSync(file, 'utf8')),
  );
  return selfTimePerRequest(profiles, { projectRoot, windows: runs.map((run) => run.windowUs), requests });
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { scenario: { type: 'string' }, top: { type: 'string', default: '40' } },
  });
  const resultsDir = resolve(positionals[0] ?? '');
  const raw = JSON.parse(readFileSync(join(resultsDir, 'raw.json'), 'utf8'));
  const commit = raw.meta.baselineCommit;
  if (!commit) throw new Error(`${resultsDir} was not run with --baseline`);
  const current = buildFigures(resultsDir, raw, {
    target: 'gateway',
    folder: 'profile',
    projectRoot: resolve('.'),
    scenario: values.scenario,
  });
  const baseline = buildFigures(resultsDir, raw, {
    target: 'baseline',
    folder: 'profile-baseline',
    projectRoot: baselineFolder(commit),
    scenario: values.scenario,
  });
  const total = (figures) => [...figures.values()].reduce((sum, value) => sum + value, 0);
  console.log(
    `busy µs per request: this build ${total(current).toFixed(1)}, ${commit} ${total(baseline).toFixed(1)}`,
  );
  console.log('| function | where | group | this build µs | baseline µs | grown µs |');
  console.log('|---|---|---|---|---|---|');
  for (const row of compareBuilds(current, baseline).slice(0, Number(values.top))) {
    const cells = [row.name, row.where, row.group, row.currentUs.toFixed(2), row.baselineUs.toFixed(2)];
    console.log(`| ${cells.join(' | ')} | ${row.grownUs.toFixed(2)} |`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) main();
