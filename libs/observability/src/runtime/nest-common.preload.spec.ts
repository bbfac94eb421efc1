import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transformFileSync } from '@swc/core';

const WORKSPACE = join(__dirname, '..', '..', '..', '..');
const RUNTIME_FILES = ['nest-common.preload', 'lazy-date-time-format'];

/**
 * The preload's compiled JavaScript, in a folder inside the workspace so that it resolves
 * @nestjs/common from the workspace's node_modules as the built apps do.
 */
function compiledPreload(): string {
  const cache = join(WORKSPACE, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'nest-preload-'));
  for (const name of RUNTIME_FILES) {
    const { code } = transformFileSync(join(__dirname, `${name}.ts`), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    writeFileSync(join(folder, `${name}.js`), code);
  }
  return join(folder, 'nest-common.preload.js');
}

/**
 * Runs a fresh Node process that counts the date formatters really built: after @nestjs/common is
 * loaded (through the preload or directly) and after Nest's console logger printed one line. Jest's
 * own realm cannot show this: a natively loaded package uses the process's Intl, not the test's.
 */
function formattersBuilt(preload: string | null): { afterLoad: number; afterLog: number } {
  const script = `
    let built = 0;
    const Real = Intl.DateTimeFormat;
    Intl.DateTimeFormat = function (locales, options) { built += 1; return new Real(locales, options); };
    Intl.DateTimeFormat.prototype = Real.prototype;
    const { createRequire } = require('node:module');
    const load = createRequire(${JSON.stringify(join(WORKSPACE, 'package.json'))});
    ${preload ? `require(${JSON.stringify(preload)});` : ''}
    const { ConsoleLogger } = load('@nestjs/common');
    const afterLoad = built;
    new ConsoleLogger('Preload', { colors: false }).log('hello');
    process.stderr.write(JSON.stringify({ afterLoad, afterLog: built }));`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(child.stdout).toMatch(/LOG \[Preload\] hello/);
  return JSON.parse(child.stderr) as { afterLoad: number; afterLog: number };
}

describe('nest-common.preload', () => {
  it('loads @nestjs/common without building its two date formatters until a line is printed', () => {
    expect(formattersBuilt(null)).toEqual({ afterLoad: 2, afterLog: 2 });
    const preload = compiledPreload();
    try {
      expect(formattersBuilt(preload)).toEqual({ afterLoad: 0, afterLog: 1 });
    } finally {
      rmSync(dirname(preload), { recursive: true, force: true });
    }
  });

  it("is the first import of every Nest app's main.ts, before anything loads @nestjs/common", () => {
    // The console is a browser app (main.tsx) and the simulator no Nest app: neither loads Nest.
    const apps = readdirSync(join(WORKSPACE, 'apps')).filter(
      (app) => app !== 'upstream-sim' && app !== 'console',
    );
    expect(apps.length).toBeGreaterThan(0);
    for (const app of apps) {
      const main = readFileSync(join(WORKSPACE, 'apps', app, 'src', 'main.ts'), 'utf8');
      expect({ app, firstLine: main.split('\n')[0] }).toEqual({
        app,
        firstLine: "import '@gateway/observability/nest-preload';",
      });
    }
  });
});
