const TONES: Record<string, 'ok' | 'warn' | 'bad' | 'muted'> = {
  enabled: 'ok',
  active: 'ok',
  closed: 'ok',
  completed: 'ok',
  ok: 'ok',
  half_open: 'warn',
  queued: 'muted',
  processing: 'warn',
  open: 'bad',
  failed: 'bad',
  disabled: 'muted',
  cancelled: 'muted',
  stuck: 'bad',
};

/** A state word with a colour; the word itself carries the meaning (colour is never the only cue). */
export function Badge({ value }: { value: string }) {
  return <span className={`badge badge--${TONES[value] ?? 'muted'}`}>{value.replace('_', ' ')}</span>;
}
