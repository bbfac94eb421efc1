// Production build: one swc pass over apps/ and libs/ into dist/, keeping the folder layout, with the
// @gateway/* path aliases rewritten to relative imports so that plain `node dist/apps/<app>/src/main.js`
// runs. Type checking is a separate step (npm run typecheck); swc only strips types, in about a second.
// `--out-dir <dir>` builds elsewhere (tests that start the built processes use their own copy, inside
// the repository so that node_modules resolves), leaving dist/ to whoever runs it.
// The operator console (apps/console) is browser code: Vite bundles it into <out-dir>/apps/console,
// replacing what swc made of its sources. `--skip-console` leaves it out (tests that start the built
// processes but never open /console, where the gateway then answers its "not built" page).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
swcrc.jsc.baseUrl = root;
swcrc.jsc.paths = compilerOptions.paths;
swcrc.exclude = ['\\.spec\\.ts$', '\\.int-spec\\.ts$', 'jest\\.config\\.ts$'];

const outDirFlag = process.argv.indexOf('--out-dir');
const outDir = outDirFlag >= 0 ? process.argv[outDirFlag + 1] : 'dist';
const configPath = join(root, 'node_modules', '.cache', `swcrc.build.${process.pid}.json`);
mkdirSync(dirname(configPath), { recursive: true });
writeFileSync(configPath, JSON.stringify(swcrc));
rmSync(join(root, outDir), { recursive: true, force: true });

const swc = join(root, 'node_modules', '@swc', 'cli', 'bin', 'swc.js');
const result = spawnSync(
  process.execPath,
  [swc, 'apps', 'libs', '--out-dir', outDir, '--config-file', configPath, '--copy-files', '--quiet'],
  { cwd: root, stdio: 'inherit' },
);
rmSync(configPath, { force: true });
if (result.status !== 0) process.exit(result.status ?? 1);

const consoleConfig = join(root, 'apps', 'console', 'vite.config.ts');
const consoleOut = join(root, outDir, 'apps', 'console');
rmSync(consoleOut, { recursive: true, force: true });
if (process.argv.includes('--skip-console') || !existsSync(consoleConfig)) process.exit(0);
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const consoleBuild = spawnSync(
  process.execPath,
  [vite, 'build', '--config', consoleConfig, '--outDir', consoleOut, '--emptyOutDir', '--logLevel', 'warn'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' } },
);
process.exit(consoleBuild.status ?? 1);
