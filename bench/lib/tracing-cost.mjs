// What tracing costs: the gateway-traced replica (OTEL_EXPORTER_OTLP_ENDPOINT set, its spans going to
// bench/otlp-sink.mjs) against the plain gateway replica, round by round, as the --baseline section
// compares two builds: each ratio between the two runs of one round, then the median.
import { comparePairedTargets, formatFigure } from './baseline-comparison.mjs';
import { FAMILY_LABELS } from './scenarios.mjs';

/** Per scenario, family and figure: gateway-traced's and gateway's medians, the median ratio traced / plain. */
export function compareTracing(runs) {
  return comparePairedTargets(runs, 'gateway-traced', 'gateway');
}

/** The counts of the traced target's OTLP sink (bench/otlp-sink.mjs) at the end of the run. */
export async function readOtlpSinkStats(target) {
  const response = await fetch(`${target.otlpSinkUrl}/__sink/stats`);
  if (!response.ok) throw new Error(`the OTLP sink answered ${response.status}`);
  return response.json();
}

/** The summary's section; null when the run had no gateway-traced run beside a gateway run. */
export function renderTracingSection(results) {
  const rows = compareTracing(results.runs);
  if (rows.length === 0) return null;
  const sink = results.meta?.otlpSink;
  return [
    '## What tracing costs (gateway-traced / gateway, per round, then the median)',
    '',
    'Both replicas share the build, database and workers; only the traced one exports spans (to a',
    'receiver on loopback that counts them: its CPU is the "otlp sink" context of gateway-traced).',
    'A ratio above 1 on CPU or latency is what tracing adds.',
    ...(sink
      ? [
          `The sink received ${sink.spans.toLocaleString('en-US')} spans in ${sink.exports.toLocaleString('en-US')} exports ` +
            `(${(sink.bytes / 1_048_576).toFixed(1)} MiB), ${sink.refused} refused.`,
        ]
      : []),
    '',
    '| scenario | route | figure | traced | plain | ratio | rounds |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${FAMILY_LABELS[row.family]} | ${row.figure} | ${formatFigure(row.figure, row.subject)} | ` +
        `${formatFigure(row.figure, row.reference)} | ${row.ratio.toFixed(3)}× | ${row.rounds} |`,
    ),
    '',
  ].join('\n');
}
