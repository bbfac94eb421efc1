// The source text of every module a worker's test files load, read from disk once per worker.
//
// Jest's runtime reads each module's file again for every test file (its file cache lives as long as
// one test file), and a file that starts a gateway loads about 2,800 modules: about 0.16 s of CPU per
// file in open, read and close alone. This cache keeps each file's text for the worker. A project file
// is checked against its modification time and size, so that a file changed during a run is read
// again; an installed package's is not, since nothing installs packages while the tests run: in the
// unit project run in one worker, that left out 146,000 of its 336,000 `stat` calls (strace), about
// 1 s of CPU on the 2-core VM.
// perf-machinery: jest-worker-sources (docs/performance-machinery.md)
const { readFileSync, statSync } = require('node:fs');
const { sep } = require('node:path');

/** file name → { mtimeMs, size, text } */
const sources = new Map();

const INSTALLED = `${sep}node_modules${sep}`;

/** The file's text as UTF-8, from the worker's cache when the file has not changed since. */
function readSource(filename) {
  const known = sources.get(filename);
  if (known !== undefined && filename.includes(INSTALLED)) return known.text;
  const { mtimeMs, size } = statSync(filename);
  if (known !== undefined && known.mtimeMs === mtimeMs && known.size === size) return known.text;
  const text = readFileSync(filename, 'utf8');
  sources.set(filename, { mtimeMs, size, text });
  return text;
}

module.exports = { readSource };
