export type Environment = Readonly<Record<string, string | undefined>>;

interface IntegerBounds {
  min: number;
  max?: number;
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/**
 * Reads environment variables and collects every problem instead of stopping at the first one.
 * An empty or blank value counts as unset (compose files often pass `NAME=`). On a problem the
 * reader returns the default, so parsing goes on and the caller reports all problems at the end.
 * Values of secret variables never appear in a problem message.
 */
export class EnvironmentReader {
  private readonly collected: string[] = [];

  constructor(private readonly env: Environment) {}

  get problems(): readonly string[] {
    return this.collected;
  }

  addProblem(message: string): void {
    this.collected.push(message);
  }

  /** The trimmed value, or undefined when unset or blank. */
  raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  string(name: string, defaultValue: string): string {
    return this.raw(name) ?? defaultValue;
  }

  /** A required secret: checked by `isValid`, reported with `requirement` and never echoed. */
  secret(name: string, isValid: (value: string) => boolean, requirement: string): string {
    const value = this.raw(name);
    if (value === undefined) {
      this.addProblem(`${name} is required: ${requirement}`);
      return '';
    }
    if (!isValid(value)) this.addProblem(`${name} ${requirement}`);
    return value;
  }

  integer(name: string, defaultValue: number, bounds: IntegerBounds): number {
    const value = this.raw(name);
    if (value === undefined) return defaultValue;
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    const withinBounds =
      Number.isSafeInteger(parsed) &&
      parsed >= bounds.min &&
      (bounds.max === undefined || parsed <= bounds.max);
    if (withinBounds) return parsed;
    const range =
      bounds.max === undefined ? `of at least ${bounds.min}` : `between ${bounds.min} and ${bounds.max}`;
    this.addProblem(`${name} must be an integer ${range} (got "${value}")`);
    return defaultValue;
  }

  boolean(name: string, defaultValue: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return defaultValue;
    if (TRUE_WORDS.has(value)) return true;
    if (FALSE_WORDS.has(value)) return false;
    this.addProblem(`${name} must be true or false (got "${value}")`);
    return defaultValue;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], defaultValue: T): T {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return defaultValue;
    const match = allowed.find((candidate) => candidate === value);
    if (match !== undefined) return match;
    this.addProblem(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
    return defaultValue;
  }

  /** A comma-separated list; blank entries are dropped. */
  list(name: string): string[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    return value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0);
  }

  /** A URL whose scheme is one of `protocols` (with the colon, e.g. `redis:`). */
  url(name: string, defaultValue: string, protocols: readonly string[]): string {
    const value = this.raw(name);
    if (value === undefined) return defaultValue;
    if (URL.canParse(value) && protocols.includes(new URL(value).protocol)) return value;
    // The URL may carry a password: describe the problem without echoing it.
    this.addProblem(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    return defaultValue;
  }
}
