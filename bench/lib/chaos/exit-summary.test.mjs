import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exitSummary } from './exit-summary.mjs';

// What Node printed when a pg pool without an error listener lost its connection (shortened dump).
const POOL_CRASH = [
  'node:events:497',
  "      throw er; // Unhandled 'error' event",
  '      ^',
  '',
  'error: terminating connection due to administrator command',
  '    at parseErrorMessage (/app/node_modules/pg-protocol/dist/parser.js:306:11)',
  "Emitted 'error' event on BoundPool instance at:",
  '    at Client.idleListener (/app/node_modules/pg-pool/index.js:62:10)',
  "  length: 116,  severity: 'FATAL',",
  '    _events: [Object: null prototype] { error: [Function (anonymous)] },',
  '        error: [Function: bound _handleErrorEvent],',
  '}',
  '',
  'Node.js v20.20.2',
];

test("a crash's headline lines are picked out of its dump", () => {
  assert.deepEqual(exitSummary({ stderr: POOL_CRASH, stdout: [] }).stderr, [
    "throw er; // Unhandled 'error' event",
    'error: terminating connection due to administrator command',
    "Emitted 'error' event on BoundPool instance at:",
  ]);
});

test('an exception and a heap exhaustion are headlines too; without one the last lines are kept', () => {
  const typeError = [
    '/app/dist/x.js:3',
    'TypeError: Cannot read properties of undefined',
    '    at f (/app/x.js:3:1)',
  ];
  assert.deepEqual(exitSummary({ stderr: typeError, stdout: [] }).stderr, [
    'TypeError: Cannot read properties of undefined',
  ]);
  const heap = [
    '<--- Last few GCs --->',
    'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
  ];
  assert.deepEqual(exitSummary({ stderr: heap, stdout: [] }).stderr, [heap[1]]);
  assert.deepEqual(exitSummary({ stderr: ['a', 'b', 'c', 'd', 'e'], stdout: [] }).stderr, [
    'b',
    'c',
    'd',
    'e',
  ]);
});

test('the last error records of the JSON log are kept, with their cause', () => {
  const stdout = [
    JSON.stringify({ level: 30, msg: 'request' }),
    JSON.stringify({ level: 50, msg: 'settlement failed', err: { message: 'Connection terminated' } }),
    'not json',
    JSON.stringify({ level: 60, msg: 'uncaught exception' }),
  ];
  assert.deepEqual(exitSummary({ stderr: [], stdout }).errorLogs, [
    'settlement failed: Connection terminated',
    'uncaught exception',
  ]);
});
