import { defineConfig } from 'prisma/config';

// The datasource URL may not live in schema.prisma (Prisma 7), and env('DATABASE_URL') would break
// `generate` when the variable is unset, hence the local default.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // Prisma's own CLI (migrate deploy, for users with network access) needs a session: the direct URL.
  datasource: {
    url:
      process.env.DATABASE_DIRECT_URL ??
      process.env.DATABASE_URL ??
      'postgresql://postgres@127.0.0.1:5432/gateway',
  },
});
