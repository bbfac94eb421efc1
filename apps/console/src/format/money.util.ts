// Money in the admin API is integer micros as decimal strings (1 unit = 1,000,000 micros), so that no
// amount ever passes through a float. Operators type and read units; these convert exactly, on strings.

const MICROS_PER_UNIT_DIGITS = 6;
const UNITS_PATTERN = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/** "1.5" → "1500000"; undefined for anything that is not a non-negative amount with at most 6 decimals. */
export function unitsToMicros(units: string): string | undefined {
  const match = UNITS_PATTERN.exec(units.trim());
  if (match === null) return undefined;
  const whole = match[1];
  const fraction = (match[2] ?? '').padEnd(MICROS_PER_UNIT_DIGITS, '0');
  const micros = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  return micros;
}

/** "-1500000" → "-1.5"; trailing zeros of the fraction dropped, at least two decimals kept. */
export function microsToUnits(micros: string): string {
  if (!/^-?\d+$/.test(micros)) return micros;
  const negative = micros.startsWith('-');
  const digits = (negative ? micros.slice(1) : micros).padStart(MICROS_PER_UNIT_DIGITS + 1, '0');
  const whole = digits.slice(0, -MICROS_PER_UNIT_DIGITS).replace(/^0+(?=\d)/, '');
  const fraction = digits.slice(-MICROS_PER_UNIT_DIGITS).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Micros as a number of units, for charts only (a plotted point needs no exactness). */
export function microsToUnitNumber(micros: string): number {
  const value = Number(micros);
  return Number.isFinite(value) ? value / 1_000_000 : 0;
}
