import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce } from './build-once';

describe('buildOnce', () => {
  let root: string;
  let folder: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'build-once-'));
    folder = join(root, 'apps');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const build = jest.fn(() => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'main.js'), '');
  });
  beforeEach(() => build.mockClear());

  it('builds on the first call and leaves the build to later ones', () => {
    buildOnce(folder, build);
    buildOnce(folder, build);
    expect(build).toHaveBeenCalledTimes(1);
    expect(existsSync(join(folder, 'main.js'))).toBe(true);
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });

  it('releases the lock when the build fails, so that the next call builds again', () => {
    expect(() =>
      buildOnce(folder, () => {
        throw new Error('swc failed');
      }),
    ).toThrow('swc failed');
    buildOnce(folder, build);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('waits while another live process holds the lock, then uses its build', async () => {
    // The other process finishes its build 300 ms from now: the build is there, then the lock goes.
    const holder = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs');
       setTimeout(() => {
         fs.mkdirSync(${JSON.stringify(folder)}, { recursive: true });
         fs.writeFileSync(${JSON.stringify(join(folder, '.built'))}, '');
         fs.rmSync(${JSON.stringify(`${folder}.lock`)}, { recursive: true, force: true });
       }, 300);`,
    ]);
    mkdirSync(`${folder}.lock`, { recursive: true });
    writeFileSync(join(`${folder}.lock`, 'pid'), String(holder.pid));
    const exited = new Promise((resolve) => holder.once('exit', resolve));

    buildOnce(folder, build);
    expect(build).not.toHaveBeenCalled();
    expect(existsSync(join(folder, '.built'))).toBe(true);
    await exited;
  });

  it('refuses to wait for a holder that ended mid-build', () => {
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    mkdirSync(`${folder}.lock`, { recursive: true });
    writeFileSync(join(`${folder}.lock`, 'pid'), ended.stdout);
    expect(() => buildOnce(folder, build)).toThrow('ended before it finished');
    expect(build).not.toHaveBeenCalled();
  });
});
