import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * docs/performance-machinery.md indexes every mechanism kept for a measured figure, and each one is
 * marked where it lives. This keeps the two in step: a marker without a row, a row without a marker,
 * or a row that names the wrong files fails here.
 */
const ROOT = join(__dirname, '..');
const INDEX = 'docs/performance-machinery.md';
const SCANNED_FOLDERS = ['apps', 'libs', 'bench', 'tools', 'prisma'];
// prisma/migrations holds the applied SQL and schema.snapshot.prisma, a copy of the schema whose
// markers belong to the schema itself.
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated', 'results', 'coverage', 'migrations']);
const SCANNED_FILE = /\.(ts|mjs|cjs|js|prisma)$/;

/** The word that starts a marker, written in two parts so that this file holds none. */
const MARKER_WORD = ['perf', 'machinery:'].join('-');
const MARKER = new RegExp(
  `^\\s*// ${MARKER_WORD} ([a-z0-9]+(?:-[a-z0-9]+)*) \\(docs/performance-machinery\\.md\\)$`,
);
/** A row of the index: its id and the files of its "where" cell, each in backticks. */
const ROW = /^\|\s*`([^`]+)`\s*\|([^|]*)\|/;

interface Marker {
  id: string;
  file: string;
  line: number;
}

function scannedFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : scannedFiles(path);
    return entry.isFile() && SCANNED_FILE.test(entry.name) ? [path] : [];
  });
}

function markersIn(file: string): { markers: Marker[]; malformed: string[] } {
  const markers: Marker[] = [];
  const malformed: string[] = [];
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (!text.includes(MARKER_WORD)) return;
      const match = MARKER.exec(text);
      if (match) markers.push({ id: match[1], file, line: index + 1 });
      else malformed.push(`${file}:${index + 1}: ${text.trim()}`);
    });
  return { markers, malformed };
}

function indexRows(): { id: string; files: string[] }[] {
  return readFileSync(join(ROOT, INDEX), 'utf8')
    .split('\n')
    .flatMap((text) => {
      const match = ROW.exec(text);
      if (!match) return [];
      const files = [...match[2].matchAll(/`([^`]+)`/g)].map(([, file]) => file);
      return [{ id: match[1], files }];
    });
}

/** The workspace's own configuration files (prettier.config.mjs, jest.config.js, …). */
const rootFiles = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isFile() && SCANNED_FILE.test(entry.name))
  .map((entry) => entry.name);
const scanned = [...rootFiles, ...SCANNED_FOLDERS.flatMap(scannedFiles)].map(markersIn);
const markers = scanned.flatMap(({ markers: found }) => found);
const rows = indexRows();
const rowsById = new Map(rows.map((row) => [row.id, row]));

describe(INDEX, () => {
  it('has rows and markers to compare', () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(markers.length).toBeGreaterThan(0);
  });

  it('writes every marker in the one form the index names', () => {
    expect(scanned.flatMap(({ malformed }) => malformed)).toEqual([]);
  });

  it('has each id in one row only', () => {
    const ids = rows.map((row) => row.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('has a row for every marker in the code, naming the file it is in', () => {
    const unindexed = markers
      .filter((marker) => !rowsById.get(marker.id)?.files.includes(marker.file))
      .map((marker) => `${marker.file}:${marker.line} ${marker.id}`);
    expect(unindexed).toEqual([]);
  });

  it('has a marker for every row, in every file the row names', () => {
    const unmarked = rows.flatMap((row) =>
      row.files
        .filter((file) => !markers.some((marker) => marker.id === row.id && marker.file === file))
        .map((file) => `${row.id} in ${file}`),
    );
    expect(rows.filter((row) => row.files.length === 0).map((row) => row.id)).toEqual([]);
    expect(unmarked).toEqual([]);
  });
});
