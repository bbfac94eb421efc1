import { PassThrough, type Readable } from 'node:stream';
import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';

/**
 * The rows of a SELECT as CSV with a header line, straight from Postgres' COPY: the server formats
 * them and pg-copy-streams pauses the socket when the client reads slowly, so memory stays flat
 * however many rows there are. `sql` takes no parameters (COPY has none): its values must already be
 * quoted literals (see usageSql's BindValue).
 *
 * The connection is its own for the length of the copy, and is given back broken if the copy did not
 * finish (a client that hung up mid-way leaves the connection in the middle of a COPY).
 */
export async function copyCsv(
  pool: Pool,
  buildSql: (quote: (value: string) => string) => string,
): Promise<Readable> {
  const client = await pool.connect();
  const sql = buildSql((value) => client.escapeLiteral(value));
  const copy = client.query(copyTo(`COPY (${sql}) TO STDOUT WITH (FORMAT csv, HEADER)`));
  const output = new PassThrough();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  copy.on('end', () => release());
  copy.on('error', (error: Error) => {
    release(error);
    output.destroy(error);
  });
  output.on('close', () => {
    if (!copy.readableEnded) {
      copy.destroy();
      release(new Error('the CSV export ended before its last row'));
    }
  });
  copy.pipe(output);
  return output;
}
