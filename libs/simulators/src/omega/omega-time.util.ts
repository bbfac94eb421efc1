/**
 * `2025-01-01 10:23:01.123`: the wire's times are local-format strings, not Unix seconds (§8.4). The
 * simulator writes them in its own time zone, as the upstream writes them in its own.
 */
export function omegaLocalTime(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  );
}
