// Writes durations.json from a Jest run's --json output: each file's seconds, for the files long
// enough to matter to the order (see slow-first.sequencer.js).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const [resultsPath] = process.argv.slice(2);
if (!resultsPath) throw new Error('usage: node tools/jest/record-durations.mjs <jest --json output>');

const { testResults } = JSON.parse(readFileSync(resultsPath, 'utf8'));
const durations = Object.fromEntries(
  testResults
    .map((result) => [relative(root, result.name), (result.endTime - result.startTime) / 1000])
    .filter(([, seconds]) => seconds >= 2)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, seconds]) => [path, Math.round(seconds * 10) / 10]),
);
writeFileSync(join(here, 'durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${Object.keys(durations).length} files recorded`);
