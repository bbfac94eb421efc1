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
  { name: 'requests/s', read: (run) => run.rps, higherIsBetter: true },
  { name: 'p50 ms', read: (run) => run.latencyUs?.p50, higherIsBetter: false },
  { name: 'p99 ms', read: (run) => run.latencyUs?.p99, higherIsBetter: false },
];

/**
 * Per scenario and family measured on both builds: each figure's median on either side and the median
 * of the per-round ratios gateway / baseline. Runs marked noisy are left out when clean rounds exist.
 */
export function compareWithBaseline(runs) {
  const rows = [];
  for (const scenario of SCENARIOS) {
    for (const family of Object.keys(FAMILY_LABELS)) {
      const rounds = pairedRounds(runs, scenario.name, family);
      if (rounds.length === 0) continue;
      const clean = rounds.filter(({ gateway, baseline }) => !gateway.noisy && !baseline.noisy);
      const used = clean.length > 0 ? clean : rounds;
      for (const figure of FIGURES) {
        const ratios = used.map(({ gateway, baseline }) =>
          ratio(figure.read(gateway), figure.read(baseline)),
        );
        const medianRatio = median(ratios);
        if (medianRatio === null) continue;
        rows.push({
          scenario: scenario.name,
          family,
          figure: figure.name,
          gateway: median(used.map(({ gateway }) => figure.read(gateway))),
          baseline: median(used.map(({ baseline }) => figure.read(baseline))),
          ratio: medianRatio,
          better: figure.higherIsBetter ? medianRatio >= 1 : medianRatio <= 1,
          rounds: used.length,
        });
      }
    }
  }
  return rows;
}

function pairedRounds(runs, scenario, family) {
  const byRound = new Map();
  for (const run of runs) {
    if (run.scenario !== scenario || run.family !== family || run.round < 1 || run.failure) continue;
    if (run.target !== 'gateway' && run.target !== 'baseline') continue;
    byRound.set(run.round, { ...byRound.get(run.round), [run.target]: run });
  }
  return [...byRound.values()].filter((pair) => pair.gateway && pair.baseline);
}

const formatFigure = (name, value) => {
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
    '| scenario | route | figure | this build | baseline | ratio | rounds |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${FAMILY_LABELS[row.family]} | ${row.figure} | ${formatFigure(row.figure, row.gateway)} | ` +
        `${formatFigure(row.figure, row.baseline)} | ${row.ratio.toFixed(3)}× ${row.better ? '✅' : '❌'} | ${row.rounds} |`,
    ),
    '',
  );
  return lines.join('\n');
}
