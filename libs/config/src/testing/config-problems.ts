import { InvalidConfigurationError } from '../invalid-configuration.error';
import { loadConfig } from '../load-config';

/** The variables every configuration needs; a spec adds the ones it is about. */
export const REQUIRED = { ADMIN_TOKEN: 'admin-token-of-enough-length', MASTER_KEY: 'ab'.repeat(32) };

/** The problems `loadConfig` names for REQUIRED plus `env`; throws when it accepts them. */
export function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig({ ...REQUIRED, ...env });
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.problems;
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}
