// The gateway against the --baseline build, round by round: each ratio is taken between the two runs
// of one round (run back to back, in alternating order), then the median of those ratios is reported,
// so that a phase of the machine that slows both does not move the verdict.
import { median, ratio } from './stats.mjs';
import { FAMILY_LABELS, SCENARIOS } from './scenarios.mjs';

/**
 * What each figure reads from a run; `higherIsBetter` says which way a ratio above 1 points. The time
 * to first byte scenario keeps its figures as latencies too.
 */
const FIGURES = [
  { name: 'CPU µs/request', read: (run) => run.cpu?.targetUsPerRequest, higherIsBetter: false },
  // Of it, the kernel's: at one connection mostly the wake-ups of the processes a request writes to.
  { name: 'kernel CPU µs/request', read: (run) => run.cpu?.targetSystemUsPerRequest, higherIsBetter: false },
  // --callgrind only: what the machine's phase cannot move.
  { name: 'instructions/request', read: (run) => run.instructions?.perRequest, higherIsBetter: false },
  { name: 'requests/s', read: (run) => run.rps, higherIsBetter: true },
  // The same over the load and the time the target stayed busy after it (bench/lib/quiet-wait.mjs):
  // what it can keep up, its deferred writes included.
  { name: 'requests/s, its deferred work included', read: sustainedRate, higherIsBetter: true },
  { name: 'p50 ms', read: (run) => run.latencyUs?.p50, higherIsBetter: false },
  { name: 'p99 ms', read: (run) => run.latencyUs?.p99, higherIsBetter: false },
];

/**
 * Per scenario and family measured on both targets: each figure's median on either side and the
 * median of the per-round ratios subject / reference. Runs marked noisy are left out when clean rounds
 * exist. Also what tracing costs (gateway-traced against gateway, bench/lib/tracing-cost.mjs).
 */
export function comparePairedTargets(runs, subject, reference) {
  const rows = [];
  for (const scenario of SCENARIOS) {
    for (const family of Object.keys(FAMILY_LABELS)) {
      const rounds = pairedRounds(runs, scenario.name, family, subject, reference);
      if (rounds.length === 0) continue;
      const clean = rounds.filter((pair) => !pair.subject.noisy && !pair.reference.noisy);
      const used = clean.length > 0 ? clean : rounds;
      for (const figure of FIGURES) {
        const ratios = used
          .map((pair) => ratio(figure.read(pair.subject), figure.read(pair.reference)))
          .filter((value) => value !== null);
        const medianRatio = median(ratios);
        if (medianRatio === null) continue;
        rows.push({
          scenario: scenario.name,
          family,
          figure: figure.name,
          subject: median(used.map((pair) => figure.read(pair.subject))),
          reference: median(used.map((pair) => figure.read(pair.reference))),
          ratio: medianRatio,
          // The lowest and highest per-round ratio: how far one round can be trusted on this machine.
          spread: [Math.min(...ratios), Math.max(...ratios)],
          better: figure.higherIsBetter ? medianRatio >= 1 : medianRatio <= 1,
          rounds: used.length,
        });
      }
    }
  }
  return rows;
}

/** The gateway against the --baseline build (rows name the sides `gateway` and `baseline`). */
export function compareWithBaseline(runs) {
  return comparePairedTargets(runs, 'gateway', 'baseline').map(({ subject, reference, ...row }) => ({
    ...row,
    gateway: subject,
    baseline: reference,
  }));
}

function pairedRounds(runs, scenario, family, subject, reference) {
  const byRound = new Map();
  for (const run of runs) {
    if (run.scenario !== scenario || run.family !== family || run.round < 1 || run.failure) continue;
    const side = run.target === subject ? 'subject' : run.target === reference ? 'reference' : null;
    if (!side) continue;
    byRound.set(run.round, { ...byRound.get(run.round), [side]: run });
  }
  return [...byRound.values()].filter((pair) => pair.subject && pair.reference);
}

export const formatFigure = (name, value) => {
  if (typeof value !== 'number') return '—';
  return name.endsWith(' ms') ? (value / 1000).toFixed(3) : Math.round(value).toLocaleString('en-US');
};

/** The Markdown section of summary.md (and the console) for a run with --baseline. */
export function renderBaselineSection(results) {
  const rows = compareWithBaseline(results.runs);
  const lines = [
    `## Against the baseline ${results.meta.baselineCommit} (this build / the baseline, per round, then the median)`,
    '',
  ];
  if (rows.length === 0) return [...lines, 'No scenario was measured on both builds.', ''].join('\n');
  lines.push(
    '| scenario | route | figure | this build | baseline | ratio | per-round range | rounds |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${FAMILY_LABELS[row.family]} | ${row.figure} | ${formatFigure(row.figure, row.gateway)} | ` +
        `${formatFigure(row.figure, row.baseline)} | ${row.ratio.toFixed(3)}× ${row.better ? '✅' : '❌'} | ` +
        `${row.spread[0].toFixed(3)}–${row.spread[1].toFixed(3)} | ${row.rounds} |`,
    ),
    '',
  );
  return lines.join('\n');
}

/** Requests over the load's duration plus the time the target stayed busy after it; wrk runs only. */
function sustainedRate(run) {
  if (!run.drain || !(run.rps > 0)) return undefined;
  return run.requests / (run.requests / run.rps + run.drain.busyMs / 1000);
}
