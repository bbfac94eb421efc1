// The admin-figures scenario on its own (bench/lib/admin-figures.mjs): GET /admin/usage and
// GET /admin/overview over 1,000,000 request-log rows, and the gateway's RSS while the widest CSV
// export streams. Prints a table; writes nothing. `npm run bench -- --scenario admin-figures` runs the
// same inside the harness and keeps the table in its results.
//
//   node bench/admin-usage.mjs [--dist dist] [--rows 1000000] [--runs 5] [--keep]
//
// Build first (npm run build, or node tools/build.mjs --out-dir <dir> and --dist <dir>).
import { parseArgs } from 'node:util';
import { adminFiguresWithinLimit, measureAdminFigures, renderAdminFigures } from './lib/admin-figures.mjs';

const { values: options } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});

try {
  const figures = await measureAdminFigures({
    dist: options.dist,
    rows: Number(options.rows),
    runs: Number(options.runs),
    keep: options.keep,
  });
  console.log(renderAdminFigures(figures));
  process.exit(adminFiguresWithinLimit(figures.queries) ? 0 : 1);
} catch (error) {
  console.error(error);
  process.exit(1);
}
