import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callgrindWrapper, parseCallgrindTotal } from './callgrind.mjs';

test('the total of a callgrind dump is its totals line', () => {
  const dump = [
    'version: 1',
    'creator: callgrind-3.19.0',
    'events: Ir',
    'fn=(1) main',
    '16 42',
    'totals: 912345678',
    '',
  ];
  assert.equal(parseCallgrindTotal(dump.join('\n')), 912_345_678);
});

test('an older dump gives its total on a summary line', () => {
  assert.equal(parseCallgrindTotal('events: Ir\nsummary: 1200\n'), 1200);
});

test('a dump without a total is refused rather than read as zero', () => {
  assert.throws(() => parseCallgrindTotal('events: Ir\nfn=(1) main\n16 42\n'), /without a totals line/);
});

test('counting is off at start and each process dumps under its target name', () => {
  const wrapper = callgrindWrapper('/tmp/run/callgrind', 'baseline');
  assert.deepEqual(wrapper.slice(0, 3), ['valgrind', '--tool=callgrind', '--instr-atstart=no']);
  assert.equal(wrapper[3], '--callgrind-out-file=/tmp/run/callgrind/baseline.%p');
});
