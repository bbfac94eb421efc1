import { EventEmitter } from 'node:events';
import { createLogger } from './create-logger';
import { logConnectionErrors } from './connection-errors.util';

describe('logConnectionErrors', () => {
  it("turns a connection's 'error' events into structured lines instead of an exception", () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      name: 'test',
      destination: { write: (line) => lines.push(line) },
    });
    const pool = new EventEmitter();
    expect(() => pool.emit('error', new Error('before'))).toThrow('before');

    expect(logConnectionErrors(pool, logger, 'postgres', 'money')).toBe(pool);
    pool.emit('error', new Error('terminating connection due to administrator command'));

    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'postgres connection error',
        connection: 'money',
        err: expect.objectContaining({ message: 'terminating connection due to administrator command' }),
      }),
    ]);
  });

  it("leaves out the client pg attaches to its pool's errors, keeping the error's own fields", () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      name: 'test',
      destination: { write: (line) => lines.push(line) },
    });
    const pool = logConnectionErrors(new EventEmitter(), logger, 'postgres', 'money');
    const error = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      severity: 'FATAL',
      client: { connectionParameters: { user: 'gateway', host: '127.0.0.1' }, buffer: 'x'.repeat(8000) },
    });
    pool.emit('error', error);

    const { err } = JSON.parse(lines[0] ?? '{}') as { err: Record<string, unknown> };
    expect(err).toMatchObject({ code: '57P01', severity: 'FATAL', message: error.message });
    expect(err['stack']).toContain('connection-errors.util.spec');
    expect(err).not.toHaveProperty('client');
    expect(lines[0]).not.toContain('x'.repeat(100));
  });
});
