// The quickstart's database URL: the user psql would take when the URL names none, and one login
// before anything is migrated or built, so that a refused user stops the run with one line naming the
// fix instead of a stack trace from the middle of a migration.
import { userInfo } from 'node:os';
import pg from 'pg';

/** SQLSTATE class 28: the server refused who we are (no such role, wrong password, no pg_hba entry). */
const REFUSED_LOGIN = /^28/;

/**
 * The URL with a user, as psql (libpq) picks one when the URL names none: PGUSER, else the name of
 * the operating-system user. pg alone would send no user when $USER is unset (as under root in a
 * container), which the server refuses.
 */
export function withDefaultUser(databaseUrl, env = process.env, osUserName = () => userInfo().username) {
  const url = new URL(databaseUrl);
  if (url.username) return databaseUrl;
  url.username = encodeURIComponent(env.PGUSER || osUserName());
  return url.toString();
}

/**
 * Logs in once to the maintenance database (the one the migration runner creates the demo database
 * from). Undefined when the login works; otherwise the one line to print.
 */
export async function databaseLoginProblem(databaseUrl) {
  const url = new URL(databaseUrl);
  const user = decodeURIComponent(url.username);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (!REFUSED_LOGIN.test(error?.code ?? ''))
      return `Postgres at ${url.host} did not accept a connection: ${reason}.`;
    const example = new URL(databaseUrl);
    example.username = 'postgres';
    example.password = '';
    return (
      `Postgres at ${url.host} refused user "${user}" (${reason}): ` +
      `name a user it knows in the URL, e.g. --database-url ${example}, or set PGUSER.`
    );
  } finally {
    // A client that never connected has nothing to close, and may say so: that is no problem of ours.
    await client.end().catch(() => {});
  }
}
