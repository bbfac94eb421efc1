import { InvalidConfigurationError, type Environment } from '@gateway/config';

const MAX_CONCURRENCY = 1000;

/** Reads a whole number from `variable` within [1, max]; the default when unset; fails fast otherwise. */
export function readPositiveInteger(
  env: Environment,
  variable: string,
  defaultValue: number,
  max: number,
): number {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return defaultValue;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidConfigurationError([`${variable} must be an integer from 1 to ${max} (got "${raw}")`]);
  }
  return value;
}

/** A worker's concurrency (jobs in flight per process), e.g. from TEXT_WORKER_CONCURRENCY. */
export function readWorkerConcurrency(
  env: Environment,
  variable: string,
  defaultConcurrency: number,
): number {
  return readPositiveInteger(env, variable, defaultConcurrency, MAX_CONCURRENCY);
}
