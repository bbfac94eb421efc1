import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareBuilds, selfTimePerRequest } from './profile-comparison.mjs';

const ROOT = '/work/project';

/** A profile of one root and the given leaf frames, each sampled `samples` times 100 µs apart. */
function profileOf(leaves) {
  const nodes = [{ id: 1, callFrame: { functionName: '(root)', url: '' }, children: [] }];
  const samples = [];
  leaves.forEach(({ functionName, url, line, samples: count }, index) => {
    const id = index + 2;
    nodes.push({ id, callFrame: { functionName, url, lineNumber: line } });
    for (let sample = 0; sample < count; sample += 1) samples.push(id);
  });
  return { nodes, startTime: 0, samples, timeDeltas: samples.map(() => 100) };
}

test('self time is divided by the requests served and compared by function and file, not line', () => {
  const current = selfTimePerRequest(
    [
      profileOf([
        {
          functionName: 'settle',
          url: `file://${ROOT}/dist/libs/billing/src/settle.js`,
          line: 40,
          samples: 30,
        },
        { functionName: '(idle)', url: '', samples: 50 },
      ]),
    ],
    { projectRoot: ROOT, windows: null, requests: 10 },
  );
  const baseline = selfTimePerRequest(
    [
      profileOf([
        {
          functionName: 'settle',
          url: `file://${ROOT}/dist/libs/billing/src/settle.js`,
          line: 12,
          samples: 10,
        },
        { functionName: 'gone', url: `file://${ROOT}/dist/apps/gateway/src/gone.js`, line: 1, samples: 20 },
      ]),
    ],
    { projectRoot: ROOT, windows: null, requests: 10 },
  );
  const rows = compareBuilds(current, baseline);
  assert.deepEqual(
    rows.map(({ name, group, currentUs, baselineUs, grownUs }) => [
      name,
      group,
      currentUs,
      baselineUs,
      grownUs,
    ]),
    [
      ['settle', 'libs/billing', 300, 100, 200],
      ['gone', 'apps/gateway', 0, 200, -200],
    ],
  );
  assert.equal(rows[0].where, 'settle.js', 'the line number is dropped');
});
