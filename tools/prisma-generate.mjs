// Generates the Prisma client offline. Prisma's CLI downloads its native schema engine at the start of
// every command, generate included, and that host is unreachable here; generate never runs the engine,
// so pointing PRISMA_SCHEMA_ENGINE_BINARY at a stub that explains itself is enough.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stub = join(root, 'node_modules', '.cache', 'schema-engine-stub.sh');

if (!existsSync(join(root, 'node_modules', 'prisma'))) process.exit(0);
mkdirSync(dirname(stub), { recursive: true });
writeFileSync(
  stub,
  '#!/bin/sh\necho "the native schema engine is not used here: migrations run through tools/migrate.mjs" >&2\nexit 1\n',
);
chmodSync(stub, 0o755);

const result = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'prisma', 'build', 'index.js'), 'generate'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? stub,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  },
);
process.exit(result.status ?? 1);
