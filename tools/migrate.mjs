// Offline replacement for `prisma migrate deploy|dev` (see migrate-lib.mjs for why).
//
//   node tools/migrate.mjs deploy [--quiet]              apply pending migrations (creates the database)
//   node tools/migrate.mjs dev <name> [--create-only]    diff the snapshot against schema.prisma, write
//                                                        prisma/migrations/<timestamp>_<name>, apply it
//
// DATABASE_DIRECT_URL when set (DATABASE_URL then goes through a transaction pooler, and migrations need
// a session: the engine's advisory lock and its multi-statement scripts), else DATABASE_URL, which
// defaults to postgresql://postgres@127.0.0.1:5432/gateway.
import { createMigration, defaultDatabaseUrl, migrateDatabase, redactPassword } from './migrate-lib.mjs';

const usage = 'usage: node tools/migrate.mjs deploy [--quiet] | dev <name> [--create-only]';

async function main() {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((arg) => arg.startsWith('--')));
  const [command, name] = args.filter((arg) => !arg.startsWith('--'));
  const quiet = flags.has('--quiet');
  const log = quiet ? () => {} : (message) => console.log(message);
  const databaseUrl = process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL || defaultDatabaseUrl;
  const startedAt = Date.now();

  if (command === 'deploy') {
    const applied = await migrateDatabase(databaseUrl, { log });
    log(applied.length ? `applied ${applied.join(', ')}` : 'no pending migrations');
  } else if (command === 'dev') {
    if (!name) throw new Error(`dev needs a migration name\n${usage}`);
    const { applied } = await createMigration(databaseUrl, name, {
      createOnly: flags.has('--create-only'),
      log,
    });
    if (!flags.has('--create-only'))
      log(applied.length ? `applied ${applied.join(', ')}` : 'no pending migrations');
  } else {
    throw new Error(usage);
  }
  log(`${command} on ${redactPassword(databaseUrl)} took ${Date.now() - startedAt} ms`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
