import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const runFile = promisify(execFile);
const root = join(__dirname, '..', '..');

/**
 * Four test files run in this order by one worker with this project's runtime and environment. The
 * module `counted.js` counts its evaluations on the worker's global; A also leaves behind what a test
 * file may leave (an environment variable, a spy it never restored, fake timers it never uninstalled),
 * which B must not see: with A's fake timers, B's real timeout never fires and B times out.
 */
const TEST_FILES: Readonly<Record<string, string>> = {
  'a.test.js': `
    const counted = require('./counted');
    test('a', () => {
      process.env.LEFT_BY_A = '1';
      jest.useFakeTimers();
      jest.spyOn(counted, 'hello').mockReturnValue('spied');
      globalThis.seenByA = counted;
      expect(counted.hello()).toBe('spied');
    });`,
  'b.test.js': `
    const counted = require('./counted');
    test('b', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(counted).toBe(globalThis.seenByA);
      expect(globalThis.evaluations).toBe(1);
      expect(process.env.LEFT_BY_A).toBeUndefined();
      expect(counted.hello()).toBe('real');
    });`,
  'c.test.js': `
    jest.mock('./counted', () => ({ hello: () => 'mocked' }));
    const counted = require('./counted');
    test('c', () => {
      expect(counted.hello()).toBe('mocked');
      expect(counted).not.toBe(globalThis.seenByA);
    });`,
  'd.test.js': `
    const counted = require('./counted');
    test('d', () => {
      expect(counted).toBe(globalThis.seenByA);
      expect(counted.hello()).toBe('real');
    });`,
};

interface JestJsonReport {
  testResults: { name: string; status: string; message: string }[];
}

describe("the modules a worker's test files share", () => {
  let folder: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'worker-modules-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('are loaded once for the files after the first, while a file that mocks gets its own', async () => {
    writeFileSync(
      join(folder, 'counted.js'),
      `globalThis.evaluations = (globalThis.evaluations ?? 0) + 1;
       module.exports = { hello: () => 'real' };`,
    );
    for (const [name, source] of Object.entries(TEST_FILES)) writeFileSync(join(folder, name), source);
    writeFileSync(
      join(folder, 'by-name.sequencer.js'),
      `const Sequencer = require(${JSON.stringify(require.resolve('@jest/test-sequencer'))}).default;
       module.exports = class extends Sequencer {
         sort(tests) { return [...tests].sort((a, b) => a.path.localeCompare(b.path)); }
       };`,
    );
    const config = {
      rootDir: folder,
      testMatch: ['<rootDir>/*.test.js'],
      transform: {},
      runtime: join(root, 'tools', 'jest', 'code-cache.runtime.js'),
      testEnvironment: join(root, 'tools', 'jest', 'worker-context.environment.js'),
      testSequencer: join(folder, 'by-name.sequencer.js'),
      cacheDirectory: join(folder, 'jest-cache'),
      testTimeout: 2000,
    };
    const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
    const { stdout } = await runFile(
      process.execPath,
      [jest, '--config', JSON.stringify(config), '--runInBand', '--ci', '--json'],
      { cwd: folder },
    ).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));

    const report = JSON.parse(stdout) as JestJsonReport;
    const outcomes = report.testResults.map(({ name, status, message }) => ({
      file: name.slice(folder.length + 1),
      status,
      message,
    }));
    expect(outcomes).toEqual(
      Object.keys(TEST_FILES).map((file) => ({ file, status: 'passed', message: '' })),
    );
  }, 30_000);
});
