import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase } from '@gateway/testing';

/** The newcomer's first command, end to end: build, migrate, start every process, seed, and the demo request. */
describe('npm run quickstart', () => {
  it('starts everything, seeds the demo and answers the printed requests with a 200 generation and images', async () => {
    const database = await createTestDatabase();
    try {
      const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            join(__dirname, 'quickstart.mjs'),
            '--check',
            '--skip-install',
            '--port',
            '18080',
            '--sim-port',
            '14010',
            '--database-url',
            database.url,
          ],
          { cwd: join(__dirname, '..'), env: { ...process.env, REDIS_PREFIX: `quickstart-${process.pid}` } },
        );
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('exit', (code) => resolve({ code, text }));
      });
      expect(output.text).toMatch(/Demo API key \(shown once\): gk_/);
      expect(output.text).toMatch(
        /curl -s http:\/\/127\.0\.0\.1:18080\/v1beta\/models\/kappa-2\.0-flash:generateContent/,
      );
      expect(output.text).toMatch(/demo request answered 200: \{"candidates"/);
      expect(output.text).toMatch(/image request img-1 \(b64_json\) answered 200: \d+x\d+ (png|jpg|webp)/);
      expect(output.text).toMatch(
        /image request draw-2 \(url\) answered 200: \d+x\d+ (png|jpg|webp) at http:\/\/127\.0\.0\.1:18080\/files\//,
      );
      expect(output.code).toBe(0);
    } finally {
      await database.drop();
    }
  }, 120_000);
});
