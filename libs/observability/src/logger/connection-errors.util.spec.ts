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
});
