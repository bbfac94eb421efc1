import type { Pool } from 'pg';

export interface RollupWatermarks {
  /** request_log_minutes holds every minute before this; null before its first run. */
  minute: Date | null;
  /** request_log_hours holds every hour before this; null before its first run. */
  hour: Date | null;
  /** Minute rows before this may have been swept (sweep_request_log_rollups); null: none swept. */
  minuteFloor: Date | null;
  /** Hour rows (usage and series) before this may have been swept; null: none swept. */
  hourFloor: Date | null;
}

/** How far the request-log rollups have got, and from where they are kept (one read of a four-row table). */
export async function readRollupWatermarks(pool: Pool): Promise<RollupWatermarks> {
  // As epoch milliseconds: pg would read a timestamp without zone in the process's local zone.
  const { rows } = await pool.query<{ name: string; ms: number }>(
    `SELECT name, (extract(epoch FROM rolled_until) * 1000)::float8 AS ms FROM rollup_watermarks`,
  );
  const of = (name: string) => {
    const row = rows.find((candidate) => candidate.name === name);
    return row === undefined ? null : new Date(row.ms);
  };
  return {
    minute: of('minute'),
    hour: of('hour'),
    minuteFloor: of('minute_floor'),
    hourFloor: of('hour_floor'),
  };
}
