import { resolve } from 'node:path';
import type { EnvironmentReader } from './environment-reader';
import type { ConsoleConfig } from './gateway-config';

/** Eight hours: a working day signed in, and a stolen cookie is worth no more than that. */
const DEFAULT_SESSION_TTL_SECONDS = 8 * 3600;
/** A month at most: a session that outlives that is a second admin token in all but name. */
const MAX_SESSION_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The operator console's settings. The console only exists beside the admin API it calls, so it is
 * off whenever ADMIN_API_ENABLED is false, whatever CONSOLE_ENABLED says.
 */
export function parseConsoleConfig(reader: EnvironmentReader, adminApiEnabled: boolean): ConsoleConfig {
  const enabled = reader.boolean('CONSOLE_ENABLED', true);
  return {
    enabled: enabled && adminApiEnabled,
    sessionTtlSeconds: reader.integer('CONSOLE_SESSION_TTL', DEFAULT_SESSION_TTL_SECONDS, {
      min: 1,
      max: MAX_SESSION_TTL_SECONDS,
    }),
    // Relative to the working directory, as `npm start` and the image run from the repository root.
    directory: resolve(reader.string('CONSOLE_DIR', 'dist/apps/console')),
  };
}
