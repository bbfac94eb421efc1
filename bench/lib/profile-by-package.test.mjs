import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  groupOfFrame,
  rankGroups,
  renderRanking,
  selfTimeByFunction,
  selfTimeByGroup,
} from './profile-by-package.mjs';

const ROOT = '/work/project';
const frame = (url, functionName = 'f') => ({ functionName, url });

test('frames are grouped by package, project folder, node internals or V8 pseudo-frame', () => {
  assert.equal(
    groupOfFrame(frame('file:///work/project/node_modules/fastify/lib/route.js'), ROOT),
    'fastify',
  );
  assert.equal(
    groupOfFrame(
      frame('file:///work/project/node_modules/@nestjs/core/node_modules/path-to-regexp/index.js'),
      ROOT,
    ),
    'path-to-regexp',
  );
  assert.equal(
    groupOfFrame(frame('file:///work/project/node_modules/@prisma/client/runtime/x.js'), ROOT),
    '@prisma/client',
  );
  assert.equal(
    groupOfFrame(frame('file:///work/project/dist/apps/gateway/src/text/a.js'), ROOT),
    'apps/gateway',
  );
  assert.equal(
    groupOfFrame(frame('/work/project/dist/libs/providers/core/src/http/b.js'), ROOT),
    'libs/providers/core',
  );
  assert.equal(groupOfFrame(frame('node:internal/streams/readable'), ROOT), 'node internals (node:*)');
  assert.equal(groupOfFrame(frame('', 'JSONParse'), ROOT), '(V8 builtins and native code)');
  assert.equal(groupOfFrame(frame('', '(garbage collector)'), ROOT), '(garbage collector)');
  assert.equal(groupOfFrame(frame('file:///elsewhere/x.js'), ROOT), 'other (/elsewhere/x.js)');
  assert.equal(groupOfFrame(frame('wasm://wasm/0012abcd'), ROOT), 'WebAssembly (wasm://)');
});

const PROFILE = {
  nodes: [
    { id: 1, callFrame: frame('', '(root)') },
    { id: 2, callFrame: frame('file:///work/project/node_modules/pino/pino.js') },
    { id: 3, callFrame: frame('file:///work/project/dist/apps/gateway/src/main.js') },
    { id: 4, callFrame: frame('', '(idle)') },
  ],
  samples: [2, 3, 2, 4, 3],
  // The time before each sample; sample i lasts until sample i+1. Samples at 1000, 1100, 1400, 1600, 2000.
  startTime: 1000,
  timeDeltas: [0, 100, 300, 200, 400],
};

test('self time follows the sample intervals; idle is kept out of the busy share', () => {
  const totals = selfTimeByGroup(PROFILE, ROOT);
  // pino: 100 + 200; apps/gateway: 300 + mean interval (250); idle: 400.
  assert.equal(totals.get('pino'), 300);
  assert.equal(totals.get('apps/gateway'), 550);
  assert.equal(totals.get('(idle)'), 400);

  const ranking = rankGroups(totals);
  assert.deepEqual(
    ranking.map((row) => row.group),
    ['apps/gateway', '(idle)', 'pino'],
  );
  assert.ok(Math.abs(ranking[0].shareOfBusy - 550 / 850) < 1e-12);
  assert.equal(ranking[1].shareOfBusy, null);
  assert.match(renderRanking(ranking, 1), /\| 1 \| apps\/gateway \| 0\.6 \| 64\.7 % \|/);
  assert.doesNotMatch(renderRanking(ranking, 1), /pino/);
});

test('with windows, only the samples taken inside them count', () => {
  const totals = selfTimeByGroup(PROFILE, ROOT, [{ startUs: 1050, endUs: 1450 }]);
  // Samples at 1100 (apps/gateway, 300) and 1400 (pino, 200).
  assert.deepEqual([...totals].sort(), [
    ['apps/gateway', 300],
    ['pino', 200],
  ]);
});

test('functions are ranked with their file, line and group', () => {
  const profile = {
    ...PROFILE,
    nodes: PROFILE.nodes.map((node) =>
      node.id === 2
        ? { ...node, callFrame: { ...node.callFrame, functionName: 'write', lineNumber: 41 } }
        : node,
    ),
  };
  const ranking = rankGroups(selfTimeByFunction(profile, ROOT));
  assert.match(renderRanking(ranking, 3), /\| write \| pino\.js:42 \| pino \| 0\.3 \|/);
});
