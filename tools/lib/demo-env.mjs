// The demo's own secrets, generated once per checkout and kept in .demo.env (git-ignored).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function demoSecrets(root) {
  const path = join(root, '.demo.env');
  if (!existsSync(path)) {
    writeFileSync(
      path,
      `ADMIN_TOKEN=${randomBytes(24).toString('hex')}\nMASTER_KEY=${randomBytes(32).toString('hex')}\n`,
      { mode: 0o600 },
    );
  }
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
