import { resolve } from 'node:path';
import { loadConfig } from './load-config';
import { problemsOf, REQUIRED } from './testing/config-problems';

describe('console configuration', () => {
  it('is on with an eight-hour session and the build folder under dist by default', () => {
    expect(loadConfig(REQUIRED).console).toEqual({
      enabled: true,
      sessionTtlSeconds: 28_800,
      directory: resolve('dist/apps/console'),
    });
  });

  it('reads CONSOLE_ENABLED, CONSOLE_SESSION_TTL and CONSOLE_DIR', () => {
    const config = loadConfig({
      ...REQUIRED,
      CONSOLE_ENABLED: 'false',
      CONSOLE_SESSION_TTL: '60',
      CONSOLE_DIR: '/srv/console',
    });
    expect(config.console).toEqual({ enabled: false, sessionTtlSeconds: 60, directory: '/srv/console' });
  });

  it('is off on a replica without the admin API, which it would call', () => {
    const config = loadConfig({ MASTER_KEY: REQUIRED.MASTER_KEY, ADMIN_API_ENABLED: 'false' });
    expect(config.console.enabled).toBe(false);
  });

  it.each([
    ['CONSOLE_ENABLED', 'maybe', 'CONSOLE_ENABLED must be true or false (got "maybe")'],
    ['CONSOLE_SESSION_TTL', '0', 'CONSOLE_SESSION_TTL must be an integer between 1 and 2592000 (got "0")'],
    ['CONSOLE_SESSION_TTL', '8h', 'CONSOLE_SESSION_TTL must be an integer between 1 and 2592000 (got "8h")'],
    [
      'CONSOLE_SESSION_TTL',
      '2592001',
      'CONSOLE_SESSION_TTL must be an integer between 1 and 2592000 (got "2592001")',
    ],
  ])('refuses %s=%s', (name, value, problem) => {
    expect(problemsOf({ [name]: value })).toEqual([problem]);
  });
});
