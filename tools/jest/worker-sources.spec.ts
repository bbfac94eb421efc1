import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSource } from './worker-sources';

describe("the worker's module sources", () => {
  let folder: string;
  let file: string;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'worker-sources-'));
    file = join(folder, 'module.js');
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a file once and gives the same text back while it is unchanged', () => {
    writeFileSync(file, 'module.exports = 1;');
    const first = readSource(file);
    // Same size and modification time, other text: only a cached read still gives the first text.
    writeFileSync(file, 'module.exports = 2;');
    const stamp = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, stamp, stamp);
    const stamped = readSource(file);
    writeFileSync(file, 'module.exports = 3;');
    utimesSync(file, stamp, stamp);
    expect(first).toBe('module.exports = 1;');
    expect(stamped).toBe('module.exports = 2;');
    expect(readSource(file)).toBe('module.exports = 2;');
  });

  it('reads a file again once its size or modification time changed', () => {
    const stamp = new Date('2026-01-01T00:00:00Z');
    writeFileSync(file, 'a');
    utimesSync(file, stamp, stamp);
    expect(readSource(file)).toBe('a');
    writeFileSync(file, 'bb');
    utimesSync(file, stamp, stamp);
    expect(readSource(file)).toBe('bb');
    writeFileSync(file, 'cc');
    const later = new Date('2026-01-02T00:00:00Z');
    utimesSync(file, later, later);
    expect(readSource(file)).toBe('cc');
  });

  it("keeps an installed package's file without looking at it again", () => {
    const installed = join(folder, 'node_modules', 'package', 'index.js');
    mkdirSync(dirname(installed), { recursive: true });
    writeFileSync(installed, 'module.exports = 1;');
    expect(readSource(installed)).toBe('module.exports = 1;');
    // Another size and modification time: a project file would be read again (above).
    writeFileSync(installed, 'module.exports = 22;');
    const later = new Date('2026-01-02T00:00:00Z');
    utimesSync(installed, later, later);
    expect(readSource(installed)).toBe('module.exports = 1;');
  });

  it('reads UTF-8 text as Jest does', () => {
    writeFileSync(file, 'const greeting = "grüß dich";');
    expect(readSource(file)).toBe('const greeting = "grüß dich";');
  });
});
