/** ISO time as the operator's local date and time, to the second; "—" for none. */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

/** A chart axis tick: hours and minutes, with the day when the window spans days. */
export function formatTick(iso: string, withDay: boolean): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return withDay
    ? date.toLocaleString(undefined, { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit' })
    : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/**
 * A `datetime-local` input's value (local time, no zone) as ISO 8601 UTC, or undefined when it is
 * empty or not a time.
 */
export function localInputToIso(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
